/**
 * npm run bench [-- --smoke]: every figure as a ratio measured side by side in one run, for both
 * engines where the engine matters. --smoke runs tiny sizes so CI can check that the benchmarks
 * keep working (no targets enforced).
 */
import { ENGINE_NAMES } from '../src/ledger/engines.ts';
import { historyScaling } from './history-scaling.ts';
import { memory } from './memory.ts';
import { relayEfficiency, type ThroughputSizes } from './relay-efficiency.ts';
import { serverThroughput } from './server-throughput.ts';
import { startup } from './startup.ts';
import { formatTable, type Figure } from './stats.ts';
import { whereTimeGoes, type Stage } from './where-time-goes.ts';

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

export async function runBenchmarks(sizes: BenchSizes): Promise<{ figures: Figure[]; stages: Stage[][] }> {
  const figures: Figure[] = [];
  for (const engine of ENGINE_NAMES) figures.push(...(await relayEfficiency(engine, sizes.throughput)));
  for (const engine of ENGINE_NAMES) figures.push(await startup(engine, sizes.startupRounds));
  figures.push(await historyScaling(sizes.history));
  figures.push(...(await serverThroughput(sizes.serverSeconds, sizes.serverRounds)));
  for (const engine of ENGINE_NAMES) figures.push(...memory(engine, sizes.churn));
  const stages: Stage[][] = [];
  for (const engine of ENGINE_NAMES) stages.push(await whereTimeGoes(engine, sizes.profiled));
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
