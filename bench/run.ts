/**
 * npm run bench [-- --smoke]: every figure as a ratio measured side by side in one run, for both
 * engines where the engine matters. --smoke runs tiny sizes so CI can check that the benchmarks
 * keep working (no targets enforced).
 */
import { DEFAULT_ENGINE, ENGINE_NAMES } from '../src/domain/ledger/engines.ts';
import { measureAppPrograms } from './app-programs.ts';
import { measureColdStart } from './cold-start.ts';
import {
  appProgramFigures,
  coldStartFigures,
  historyFigure,
  journalFigure,
  memoryFigures,
  relayEfficiencyFigures,
  relayMemoryFigures,
  relayMemoryLines,
  stageBreakdown,
  startupFigure,
  throughputFigures,
  userSuiteFigure,
  walletPageFigures,
  type Stage,
} from './figures.ts';
import { measureHistory } from './history-scaling.ts';
import { measureJournalThroughput } from './journal-throughput.ts';
import { measureMemory } from './memory.ts';
import { measureRelayEfficiency, type ThroughputSizes } from './relay-efficiency.ts';
import { measureRelayMemory, type RelayMemorySizes } from './relay-memory.ts';
import { measureServerThroughput } from './server-throughput.ts';
import { measureStartup } from './startup.ts';
import { formatTable, type Figure } from './stats.ts';
import { measureUserSuite } from './user-suite.ts';
import { measureStages } from './where-time-goes.ts';
import { measureWalletPage } from './wallet-page.ts';

export interface BenchSizes {
  throughput: ThroughputSizes;
  startupRounds: number;
  history: { small: number; large: number; requests: number };
  serverSeconds: number;
  serverRounds: number;
  churn: number;
  profiled: number;
  journal: { transfers: number; rounds: number };
  /** Relayed transfers, per engine, with RSS after every `step` (issue 16: at most 15 KB each on the default engine). */
  relayMemory: RelayMemorySizes;
  /** Start-ups with and without Light Protocol's programs, and relayed calls against transfers (issue 32). */
  appPrograms: { rounds: number; perRound: number };
  /** Fresh-process pairs: the package's import and first emulator, and the command's start-up (issue 36). */
  coldStartRounds: number;
  /** A user's suite of vitest files, one emulator each, against bare LiteSVM (issue 36). */
  userSuite: { files: number; rounds: number };
  /** Pages opened in Chromium with and without relay-emulator/playwright's fixture work (issue 54). */
  walletPageRounds: number;
}

export const FULL: BenchSizes = {
  throughput: { rounds: 7, perRound: 100 },
  startupRounds: 15,
  history: { small: 1_000, large: 100_000, requests: 400 },
  serverSeconds: 2,
  serverRounds: 7,
  churn: 20,
  profiled: 300,
  journal: { transfers: 300, rounds: 5 },
  relayMemory: { transfers: 10_000, step: 1_000, clients: 32, slots: 500 },
  appPrograms: { rounds: 7, perRound: 100 },
  coldStartRounds: 7,
  userSuite: { files: 50, rounds: 3 },
  walletPageRounds: 9,
};
export const SMOKE: BenchSizes = {
  throughput: { rounds: 1, perRound: 5 },
  startupRounds: 2,
  history: { small: 100, large: 1_000, requests: 10 },
  serverSeconds: 1,
  serverRounds: 1,
  churn: 2,
  profiled: 3,
  journal: { transfers: 8, rounds: 1 },
  relayMemory: { transfers: 40, step: 20, clients: 4, slots: 10 },
  appPrograms: { rounds: 1, perRound: 5 },
  coldStartRounds: 1,
  userSuite: { files: 2, rounds: 1 },
  walletPageRounds: 1,
};

/** Measures one engine after the other (never side by side: they would share the CPU). */
async function perEngine<T>(measure: (engine: (typeof ENGINE_NAMES)[number]) => Promise<T> | T): Promise<T[]> {
  const measured: T[] = [];
  for (const engine of ENGINE_NAMES) measured.push(await measure(engine));
  return measured;
}

/** What the benchmarks measure, one function per bench module; the figures are made from what they return. */
export const MEASURE = {
  relayEfficiency: (sizes: BenchSizes) => perEngine((engine) => measureRelayEfficiency(engine, sizes.throughput)),
  startup: (sizes: BenchSizes) => perEngine((engine) => measureStartup(engine, sizes.startupRounds)),
  history: (sizes: BenchSizes) => measureHistory(sizes.history),
  serverThroughput: (sizes: BenchSizes) => measureServerThroughput(sizes.serverSeconds, sizes.serverRounds),
  memory: (sizes: BenchSizes) => perEngine((engine) => measureMemory(engine, sizes.churn)),
  stages: (sizes: BenchSizes) => perEngine((engine) => measureStages(engine, sizes.profiled)),
  journal: (sizes: BenchSizes) => measureJournalThroughput(sizes.journal.transfers, sizes.journal.rounds),
  relayMemory: async (sizes: BenchSizes) => measureRelayMemory(sizes.relayMemory),
  appPrograms: (sizes: BenchSizes) => measureAppPrograms(sizes.appPrograms.rounds, sizes.appPrograms.perRound),
  coldStart: (sizes: BenchSizes) => measureColdStart(sizes.coldStartRounds),
  userSuite: (sizes: BenchSizes) => measureUserSuite(sizes.userSuite.files, sizes.userSuite.rounds),
  walletPage: (sizes: BenchSizes) => measureWalletPage(sizes.walletPageRounds),
};

export type Measurers = typeof MEASURE;

/** Runs the measurements one after another (never side by side: they would share the CPU) and makes the figures. */
export async function runBenchmarks(sizes: BenchSizes, measure: Measurers = MEASURE): Promise<{ figures: Figure[]; stages: Stage[][]; memoryLines: string[] }> {
  const figures: Figure[] = [];
  for (const measured of await measure.relayEfficiency(sizes)) figures.push(...relayEfficiencyFigures(measured));
  for (const measured of await measure.startup(sizes)) figures.push(startupFigure(measured));
  figures.push(historyFigure(await measure.history(sizes)));
  figures.push(...throughputFigures(await measure.serverThroughput(sizes)));
  for (const measured of await measure.memory(sizes)) figures.push(...memoryFigures(measured));
  figures.push(journalFigure(await measure.journal(sizes)));
  const stages = (await measure.stages(sizes)).map(stageBreakdown);
  const relayMemory = await measure.relayMemory(sizes);
  figures.push(...relayMemoryFigures(relayMemory, DEFAULT_ENGINE));
  figures.push(...appProgramFigures(await measure.appPrograms(sizes)));
  figures.push(...coldStartFigures(await measure.coldStart(sizes)));
  for (const measured of await measure.userSuite(sizes)) figures.push(userSuiteFigure(measured));
  figures.push(...walletPageFigures(await measure.walletPage(sizes)));
  return { figures, stages, memoryLines: relayMemory.flatMap(relayMemoryLines) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.RUST_LOG ??= 'error';
  const smoke = process.argv.includes('--smoke');
  const { figures, stages, memoryLines } = await runBenchmarks(smoke ? SMOKE : FULL);
  console.log(
    `relay-emulator benchmarks (${smoke ? 'smoke sizes' : 'full sizes'}), node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`,
  );
  console.log(formatTable(figures));
  for (const figure of figures) if (figure.note) console.log(`\n* ${figure.name}: ${figure.note}`);
  for (const engine of stages) {
    console.log('\nWhere the CPU time of one relayed transfer goes (µs per transfer):');
    for (const { stage, microseconds } of engine) console.log(`  ${stage.padEnd(70)} ${microseconds.toFixed(0).padStart(7)}`);
  }
  console.log('\nRSS under relayed transfers, per engine:');
  for (const line of memoryLines) console.log(`  ${line}`);
}
