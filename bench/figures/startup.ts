/** Start-up: an emulator's first answer against a bare engine's start (bench/startup.ts). */
import { median, type Figure } from '../stats.ts';
import type { BenchEngine } from './shared.ts';

/** Milliseconds to a first answer, one bare engine start and one emulator start per round. */
export interface StartupMeasurement {
  engine: BenchEngine;
  bareMs: number[];
  emulatorMs: number[];
}

export function startupFigure({ engine, bareMs, emulatorMs }: StartupMeasurement): Figure {
  // The median of per-round ratios: each round's two starts are moments apart, so a slow stretch
  // of the machine lands on both sides of one ratio rather than on one side of the medians.
  const ratio = median(emulatorMs.map((ms, round) => ms / bareMs[round]!));
  const bankrun = engine === 'bankrun';
  return {
    name: `start-up, ${engine} (median ms)`,
    measured: `${median(emulatorMs).toFixed(1)} ms emulator`,
    baseline: `${median(bareMs).toFixed(1)} ms bare ${engine}`,
    ratio,
    target: bankrun ? '≤ 1.5' : 'report',
    meets: bankrun ? ratio <= 1.5 : null,
    ...(bankrun
      ? {}
      : { note: 'each round closes its emulator, so the next reuses its LiteSVM bank (reset); a bare start loads the SPL programs anew every time' }),
  };
}
