/**
 * Memory under relays: each engine relays 10,000 transfers in a child process of its own (a fresh
 * RSS), which prints its RSS per 1,000 (bench/relay-memory-probe.ts). Run alone with
 * `npx tsx bench/relay-memory.ts [transfers]`; `npm run bench` includes it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BENCH_ENGINES, DEFAULT_BENCH_ENGINE } from './engines.ts';
import { relayMemoryFigures, relayMemoryLines, type RelayMemoryProbe } from './figures.ts';
import { formatTable } from './stats.ts';

const probe = fileURLToPath(new URL('./relay-memory-probe.ts', import.meta.url));

export interface RelayMemorySizes {
  transfers: number;
  step: number;
  clients: number;
  /** One-slot warps, and the slots each recreated emulator warps. */
  slots: number;
}

/** One probe per engine, one after the other. */
export function measureRelayMemory(sizes: RelayMemorySizes): RelayMemoryProbe[] {
  return Object.keys(BENCH_ENGINES).map((engine) => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, engine, String(sizes.transfers), String(sizes.step), String(sizes.clients), String(sizes.slots)], {
      encoding: 'utf8',
      env: { ...process.env, RUST_LOG: 'error' },
      maxBuffer: 1 << 20,
    });
    return JSON.parse(output) as RelayMemoryProbe;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const transfers = Number(process.argv[2] ?? 10_000);
  const probes = measureRelayMemory({ transfers, step: Math.max(1, Math.round(transfers / 10)), clients: 32, slots: 500 });
  for (const run of probes) console.log(relayMemoryLines(run).join('\n'));
  console.log(`\n${formatTable(relayMemoryFigures(probes, DEFAULT_BENCH_ENGINE))}`);
}
