/**
 * npm run bench [-- --smoke]: every figure as a ratio measured side by side in one run, for both
 * engines where the engine matters. --smoke runs tiny sizes so CI can check that the benchmarks
 * keep working (no targets enforced).
 */
import { ENGINE_NAMES } from '../src/ledger/engines.ts';
import { historyFigure, memoryFigures, relayEfficiencyFigures, stageBreakdown, startupFigure, throughputFigures, type Stage } from './figures.ts';
import { measureHistory } from './history-scaling.ts';
import { measureMemory } from './memory.ts';
import { measureRelayEfficiency, type ThroughputSizes } from './relay-efficiency.ts';
import { measureServerThroughput } from './server-throughput.ts';
import { measureStartup } from './startup.ts';
import { formatTable, type Figure } from './stats.ts';
import { measureStages } from './where-time-goes.ts';

export interface BenchSizes {
  throughput: ThroughputSizes;
  startupRounds: number;
  history: { small: number; large: number; requests: number };
  serverSeconds: number;
  serverRounds: number;
  churn: number;
  profiled: number;
}

export const FULL: BenchSizes = { throughput: { rounds: 7, perRound: 100 }, startupRounds: 15, history: { small: 1_000, large: 100_000, requests: 400 }, serverSeconds: 2, serverRounds: 7, churn: 20, profiled: 300 };
export const SMOKE: BenchSizes = { throughput: { rounds: 1, perRound: 5 }, startupRounds: 2, history: { small: 100, large: 1_000, requests: 10 }, serverSeconds: 1, serverRounds: 1, churn: 2, profiled: 3 };

/** What the benchmarks measure, one function per bench module; the figures are made from what they return. */
export const MEASURE = {
  relayEfficiency: async (sizes: BenchSizes) => {
    const measured = [];
    for (const engine of ENGINE_NAMES) measured.push(await measureRelayEfficiency(engine, sizes.throughput));
    return measured;
  },
  startup: async (sizes: BenchSizes) => {
    const measured = [];
    for (const engine of ENGINE_NAMES) measured.push(await measureStartup(engine, sizes.startupRounds));
    return measured;
  },
  history: (sizes: BenchSizes) => measureHistory(sizes.history),
  serverThroughput: (sizes: BenchSizes) => measureServerThroughput(sizes.serverSeconds, sizes.serverRounds),
  memory: async (sizes: BenchSizes) => ENGINE_NAMES.map((engine) => measureMemory(engine, sizes.churn)),
  stages: async (sizes: BenchSizes) => {
    const measured = [];
    for (const engine of ENGINE_NAMES) measured.push(await measureStages(engine, sizes.profiled));
    return measured;
  },
};

export type Measurers = typeof MEASURE;

/** Runs the measurements one after another (never side by side: they would share the CPU) and makes the figures. */
export async function runBenchmarks(sizes: BenchSizes, measure: Measurers = MEASURE): Promise<{ figures: Figure[]; stages: Stage[][] }> {
  const figures: Figure[] = [];
  for (const measured of await measure.relayEfficiency(sizes)) figures.push(...relayEfficiencyFigures(measured));
  for (const measured of await measure.startup(sizes)) figures.push(startupFigure(measured));
  figures.push(historyFigure(await measure.history(sizes)));
  figures.push(...throughputFigures(await measure.serverThroughput(sizes)));
  for (const measured of await measure.memory(sizes)) figures.push(...memoryFigures(measured));
  const stages = (await measure.stages(sizes)).map(stageBreakdown);
  return { figures, stages };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.RUST_LOG ??= 'error';
  const smoke = process.argv.includes('--smoke');
  const { figures, stages } = await runBenchmarks(smoke ? SMOKE : FULL);
  console.log(`relay-emulator benchmarks (${smoke ? 'smoke sizes' : 'full sizes'}), node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`);
  console.log(formatTable(figures));
  for (const figure of figures) if (figure.note) console.log(`\n* ${figure.name}: ${figure.note}`);
  for (const engine of stages) {
    console.log('\nWhere the CPU time of one relayed transfer goes (µs per transfer):');
    for (const { stage, microseconds } of engine) console.log(`  ${stage.padEnd(70)} ${microseconds.toFixed(0).padStart(7)}`);
  }
}
