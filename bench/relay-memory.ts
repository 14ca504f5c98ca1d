/**
 * Memory under relays: each engine relays 10,000 transfers in a child process of its own (a fresh
 * RSS), which prints its RSS per 1,000 (bench/relay-memory-probe.ts). Run alone with
 * `npx tsx bench/relay-memory.ts [transfers]`; `npm run bench` includes it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ENGINE, ENGINE_NAMES } from '../src/domain/ledger/engines.ts';
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

/** The probes of each engine, one after the other: each phase in a process of its own. */
export function measureRelayMemory(sizes: RelayMemorySizes): RelayMemoryProbe[] {
  const run = (phase: 'transfers' | 'slots', engine: string): unknown => {
    const args = [phase, engine, String(sizes.transfers), String(sizes.step), String(sizes.clients), String(sizes.slots)];
    const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, ...args], {
      encoding: 'utf8',
      env: { ...process.env, RUST_LOG: 'error' },
      maxBuffer: 1 << 20,
    });
    return JSON.parse(output);
  };
  return ENGINE_NAMES.map((engine) => ({ ...(run('transfers', engine) as object), ...(run('slots', engine) as object) }) as RelayMemoryProbe);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const transfers = Number(process.argv[2] ?? 10_000);
  const probes = measureRelayMemory({ transfers, step: Math.max(1, Math.round(transfers / 10)), clients: 32, slots: 500 });
  for (const run of probes) console.log(relayMemoryLines(run).join('\n'));
  console.log(`\n${formatTable(relayMemoryFigures(probes, DEFAULT_ENGINE))}`);
}
