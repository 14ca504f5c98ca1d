/** Memory: RSS of one emulator against a bare ledger, and RSS growth over N emulators created and closed. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Figure } from './stats.ts';

const probe = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));

function run(...args: string[]): { before: number; after: number } {
  const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, ...args], { encoding: 'utf8', env: { ...process.env, RUST_LOG: 'error' } });
  return JSON.parse(output) as { before: number; after: number };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function memory(churn: number): Figure[] {
  const bare = run('bare');
  const emulator = run('emulator');
  const grown = run('churn', String(churn));
  const bareCost = bare.after - bare.before;
  const emulatorCost = emulator.after - emulator.before;
  const growth = grown.after - grown.before;
  return [
    { name: 'RSS of one emulator', measured: mb(emulatorCost), baseline: `${mb(bareCost)} bare bankrun`, ratio: emulatorCost / bareCost, target: 'report', meets: null },
    {
      name: `RSS growth, ${churn} emulators created+closed`,
      measured: mb(growth),
      baseline: `${mb(bareCost)} per bankrun start`,
      ratio: growth / Math.max(bareCost, 1) / churn,
      target: 'report',
      meets: null,
      note: 'ratio = growth per emulator / one bare start: bankrun leaks its bank and clock thread on every start()',
    },
  ];
}
