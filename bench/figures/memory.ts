/** Memory: one emulator's RSS, and what emulators created and closed leave behind (bench/memory.ts). */
import type { Figure } from '../stats.ts';
import { mb, type BenchEngine } from './shared.ts';

/** RSS in bytes before and after, from a child process. */
export interface RssProbe {
  before: number;
  after: number;
}

export interface MemoryMeasurement {
  engine: BenchEngine;
  /** One bare engine start. */
  bare: RssProbe;
  /** One emulator. */
  emulator: RssProbe;
  /** `churn` emulators created and closed. */
  churned: RssProbe;
  churn: number;
}

const MB = 1024 * 1024;
/** RSS an emulator created and closed may leave behind on LiteSVM. */
export const LITESVM_CHURN_BYTES = 2 * MB;

export function memoryFigures({ engine, bare, emulator, churned, churn }: MemoryMeasurement): Figure[] {
  const bareCost = bare.after - bare.before;
  const emulatorCost = emulator.after - emulator.before;
  const growth = churned.after - churned.before;
  const perEmulator = growth / churn;
  const litesvm = engine === 'litesvm';
  return [
    {
      name: `RSS of one emulator, ${engine}`,
      measured: mb(emulatorCost),
      baseline: `${mb(bareCost)} bare ${engine}`,
      ratio: emulatorCost / bareCost,
      target: 'report',
      meets: null,
    },
    {
      name: `RSS growth, ${churn} emulators created+closed, ${engine}`,
      measured: `${mb(growth)} (${mb(perEmulator)} each)`,
      baseline: `${mb(LITESVM_CHURN_BYTES)} per emulator`,
      ratio: perEmulator / LITESVM_CHURN_BYTES,
      target: litesvm ? '≤ 1' : 'report',
      meets: litesvm ? perEmulator <= LITESVM_CHURN_BYTES : null,
      note: litesvm
        ? 'a closed emulator leaves its LiteSVM bank (~7 MB of loaded programs) to the next, reset; without that reuse each bank stays in RSS until a ' +
          'full collection, and the allocator keeps its pages after'
        : 'bankrun leaks its bank and a clock thread on every start(), and has no shutdown',
    },
  ];
}
