/** Memory, per engine: RSS of one emulator against a bare engine start, and RSS growth over N emulators created and closed. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EngineName } from '../src/ledger/engines.ts';
import type { Figure } from './stats.ts';

const probe = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));

function run(...args: string[]): { before: number; after: number } {
  const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, ...args], { encoding: 'utf8', env: { ...process.env, RUST_LOG: 'error' } });
  return JSON.parse(output) as { before: number; after: number };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const MB = 1024 * 1024;

export function memory(engine: EngineName, churn: number): Figure[] {
  const bare = run('bare', engine);
  const emulator = run('emulator', engine);
  const grown = run('churn', engine, String(churn));
  const bareCost = bare.after - bare.before;
  const emulatorCost = emulator.after - emulator.before;
  const growth = grown.after - grown.before;
  const perEmulator = growth / churn;
  const litesvm = engine === 'litesvm';
  return [
    { name: `RSS of one emulator, ${engine}`, measured: mb(emulatorCost), baseline: `${mb(bareCost)} bare ${engine}`, ratio: emulatorCost / Math.max(bareCost, 1), target: 'report', meets: null },
    {
      name: `RSS growth, ${churn} emulators created+closed, ${engine}`,
      measured: `${mb(growth)} (${mb(perEmulator)} each)`,
      baseline: '2 MB per emulator',
      ratio: perEmulator / (2 * MB),
      target: litesvm ? '≤ 1' : 'report',
      meets: litesvm ? perEmulator <= 2 * MB : null,
      note: litesvm
        ? 'a closed emulator leaves its LiteSVM bank (~7 MB of loaded programs) to the next, reset; without that reuse each bank stays in RSS until a full GC, and the allocator keeps the pages'
        : 'bankrun leaks its bank and a clock thread on every start(), and has no shutdown',
    },
  ];
}
