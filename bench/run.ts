/**
 * npm run bench [-- --smoke]: every figure as a ratio measured side by side in one run.
 * --smoke runs tiny sizes so CI can check that the benchmarks keep working (no targets enforced).
 */
import { historyScaling } from './history-scaling.ts';
import { journalThroughput } from './journal-throughput.ts';
import { memory } from './memory.ts';
import { relayEfficiency } from './relay-efficiency.ts';
import { serverThroughput } from './server-throughput.ts';
import { startup } from './startup.ts';
import { formatTable, type Figure } from './stats.ts';
import { whereTimeGoes } from './where-time-goes.ts';

export interface BenchSizes {
  transfers: number;
  startupRounds: number;
  history: { small: number; large: number; requests: number };
  serverSeconds: number;
  serverRounds: number;
  churn: number;
  profiled: number;
  journal: { transfers: number; rounds: number };
}

export const FULL: BenchSizes = { transfers: 300, startupRounds: 15, history: { small: 1_000, large: 100_000, requests: 400 }, serverSeconds: 2, serverRounds: 7, churn: 20, profiled: 200, journal: { transfers: 300, rounds: 5 } };
export const SMOKE: BenchSizes = { transfers: 5, startupRounds: 2, history: { small: 100, large: 1_000, requests: 10 }, serverSeconds: 1, serverRounds: 1, churn: 2, profiled: 3, journal: { transfers: 8, rounds: 1 } };

export async function runBenchmarks(sizes: BenchSizes): Promise<{ figures: Figure[]; stages: Awaited<ReturnType<typeof whereTimeGoes>> }> {
  const figures: Figure[] = [];
  figures.push(await relayEfficiency(sizes.transfers));
  figures.push(await startup(sizes.startupRounds));
  figures.push(await historyScaling(sizes.history));
  figures.push(...(await serverThroughput(sizes.serverSeconds, sizes.serverRounds)));
  figures.push(...memory(sizes.churn));
  figures.push(await journalThroughput(sizes.journal.transfers, sizes.journal.rounds));
  const stages = await whereTimeGoes(sizes.profiled);
  return { figures, stages };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.RUST_LOG ??= 'error';
  const smoke = process.argv.includes('--smoke');
  const { figures, stages } = await runBenchmarks(smoke ? SMOKE : FULL);
  console.log(`relay-emulator benchmarks (${smoke ? 'smoke sizes' : 'full sizes'}), node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`);
  console.log(formatTable(figures));
  for (const figure of figures) if (figure.note) console.log(`\n* ${figure.name}: ${figure.note}`);
  console.log('\nWhere the time of one relay call goes (µs per call):');
  for (const { stage, microseconds } of stages) console.log(`  ${stage.padEnd(40)} ${microseconds.toFixed(0).padStart(7)}`);
}
