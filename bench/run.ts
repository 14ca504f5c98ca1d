/**
 * npm run bench [-- --smoke]: every figure as a ratio measured side by side in one run.
 * --smoke runs tiny sizes so CI can check that the benchmarks keep working (no targets enforced).
 */
import { DEFAULT_BENCH_ENGINE } from './engines.ts';
import { historyFigure, journalFigure, memoryFigures, relayEfficiencyFigure, relayMemoryFigures, relayMemoryLines, stageBreakdown, startupFigure, throughputFigures, type Stage } from './figures.ts';
import { measureHistory } from './history-scaling.ts';
import { measureJournalThroughput } from './journal-throughput.ts';
import { measureMemory } from './memory.ts';
import { measureRelayEfficiency } from './relay-efficiency.ts';
import { measureRelayMemory, type RelayMemorySizes } from './relay-memory.ts';
import { measureServerThroughput } from './server-throughput.ts';
import { measureStartup } from './startup.ts';
import { formatTable, type Figure } from './stats.ts';
import { measureStages } from './where-time-goes.ts';

export interface BenchSizes {
  transfers: number;
  startupRounds: number;
  history: { small: number; large: number; requests: number };
  serverSeconds: number;
  serverRounds: number;
  churn: number;
  profiled: number;
  journal: { transfers: number; rounds: number };
  /** Relayed transfers, per engine, with RSS after every `step` (issue 16: at most 15 KB each on the default engine). */
  relayMemory: RelayMemorySizes;
}

export const FULL: BenchSizes = {
  transfers: 300,
  startupRounds: 15,
  history: { small: 1_000, large: 100_000, requests: 400 },
  serverSeconds: 2,
  serverRounds: 7,
  churn: 20,
  profiled: 200,
  journal: { transfers: 300, rounds: 5 },
  relayMemory: { transfers: 10_000, step: 1_000, clients: 32, slots: 500 },
};
export const SMOKE: BenchSizes = {
  transfers: 5,
  startupRounds: 2,
  history: { small: 100, large: 1_000, requests: 10 },
  serverSeconds: 1,
  serverRounds: 1,
  churn: 2,
  profiled: 3,
  journal: { transfers: 8, rounds: 1 },
  relayMemory: { transfers: 40, step: 20, clients: 4, slots: 10 },
};

/** What the benchmarks measure, one function per bench module; the figures are made from what they return. */
export const MEASURE = {
  relayEfficiency: (sizes: BenchSizes) => measureRelayEfficiency(sizes.transfers),
  startup: (sizes: BenchSizes) => measureStartup(sizes.startupRounds),
  history: (sizes: BenchSizes) => measureHistory(sizes.history),
  serverThroughput: (sizes: BenchSizes) => measureServerThroughput(sizes.serverSeconds, sizes.serverRounds),
  memory: async (sizes: BenchSizes) => measureMemory(sizes.churn),
  stages: (sizes: BenchSizes) => measureStages(sizes.profiled),
  journal: (sizes: BenchSizes) => measureJournalThroughput(sizes.journal.transfers, sizes.journal.rounds),
  relayMemory: async (sizes: BenchSizes) => measureRelayMemory(sizes.relayMemory),
};

export type Measurers = typeof MEASURE;

/** Runs the measurements one after another (never side by side: they would share the CPU) and makes the figures. */
export async function runBenchmarks(sizes: BenchSizes, measure: Measurers = MEASURE): Promise<{ figures: Figure[]; stages: Stage[]; memoryLines: string[] }> {
  const figures: Figure[] = [];
  figures.push(relayEfficiencyFigure(await measure.relayEfficiency(sizes)));
  figures.push(startupFigure(await measure.startup(sizes)));
  figures.push(historyFigure(await measure.history(sizes)));
  figures.push(...throughputFigures(await measure.serverThroughput(sizes)));
  figures.push(...memoryFigures(await measure.memory(sizes)));
  figures.push(journalFigure(await measure.journal(sizes)));
  const stages = stageBreakdown(await measure.stages(sizes));
  const relayMemory = await measure.relayMemory(sizes);
  figures.push(...relayMemoryFigures(relayMemory, DEFAULT_BENCH_ENGINE));
  return { figures, stages, memoryLines: relayMemory.flatMap(relayMemoryLines) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.RUST_LOG ??= 'error';
  const smoke = process.argv.includes('--smoke');
  const { figures, stages, memoryLines } = await runBenchmarks(smoke ? SMOKE : FULL);
  console.log(`relay-emulator benchmarks (${smoke ? 'smoke sizes' : 'full sizes'}), node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`);
  console.log(formatTable(figures));
  for (const figure of figures) if (figure.note) console.log(`\n* ${figure.name}: ${figure.note}`);
  console.log('\nWhere the time of one relay call goes (µs per call):');
  for (const { stage, microseconds } of stages) console.log(`  ${stage.padEnd(40)} ${microseconds.toFixed(0).padStart(7)}`);
  console.log('\nRSS under relayed transfers, per engine:');
  for (const line of memoryLines) console.log(`  ${line}`);
}
