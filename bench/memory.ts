/** Memory, per engine: RSS of one emulator against a bare engine start, and RSS growth over N emulators created and closed. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EngineName } from '../src/domain/ledger/engines.ts';
import type { MemoryMeasurement, RssProbe } from './figures.ts';

const probe = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));

function run(...args: string[]): RssProbe {
  const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, ...args], {
    encoding: 'utf8',
    env: { ...process.env, RUST_LOG: 'error' },
  });
  return JSON.parse(output) as RssProbe;
}

/** RSS probes in child processes; memoryFigures (figures.ts) makes the figures. */
export function measureMemory(engine: EngineName, churn: number): MemoryMeasurement {
  return { engine, bare: run('bare', engine), emulator: run('emulator', engine), churned: run('churn', engine, String(churn)), churn };
}
