/**
 * Every figure of the benchmarks as a pure function of what was measured: the bench modules
 * measure (the engines, HTTP, child processes), these turn measurements into ratios and verdicts. So a
 * test can feed measurements and see each figure follow them (test/bench-figures.test.ts).
 * One file per benchmark under bench/figures/; this is their barrel.
 */
export type { BenchEngine } from './figures/shared.ts';
export { relayEfficiencyFigures, LITESVM_RELAYED_PER_SECOND, type RelayEfficiencyMeasurement, type TransferRound } from './figures/relay-efficiency.ts';
export { startupFigure, type StartupMeasurement } from './figures/startup.ts';
export { historyFigure, type HistoryMeasurement } from './figures/history.ts';
export {
  throughputFigures,
  BASELINE_OF,
  THROUGHPUT_TARGETS,
  type ThroughputBaseline,
  type ThroughputMeasurement,
  type ThroughputRound,
  type ThroughputTarget,
} from './figures/throughput.ts';
export { memoryFigures, LITESVM_CHURN_BYTES, type MemoryMeasurement, type RssProbe } from './figures/memory.ts';
export { stageBreakdown, type Stage, type StageMeasurement } from './figures/stages.ts';
export { relayMemoryFigures, relayMemoryLines, kbPerSlot, kbPerTransfer, MAX_KB_PER_TRANSFER, type RelayMemoryProbe } from './figures/relay-memory.ts';
export { journalFigure, type JournalMeasurement } from './figures/journal.ts';
export { appProgramFigures, type AppProgramsMeasurement } from './figures/app-programs.ts';
export { coldStartFigures, COLD_START_TARGET, START_TO_READY_TARGET, type ColdStartMeasurement } from './figures/cold-start.ts';
export { userSuiteFigure, type UserSuiteMeasurement } from './figures/user-suite.ts';
export { walletPageFigures, type WalletPageMeasurement } from './figures/wallet-page.ts';
