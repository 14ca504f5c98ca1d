/** History scaling: gethistory against a large index and a small one (bench/history-scaling.ts). */
import { median, type Figure } from '../stats.ts';

/** gethistory request times against an index of `large` entries and one of `small`, taken in turns. */
export interface HistoryMeasurement {
  small: number;
  large: number;
  smallMs: number[];
  largeMs: number[];
}

export function historyFigure({ small, large, smallMs, largeMs }: HistoryMeasurement): Figure {
  const ratio = median(largeMs) / median(smallMs);
  return {
    name: 'history p50 (large/small index)',
    measured: `${median(largeMs).toFixed(3)} ms @ ${large}`,
    baseline: `${median(smallMs).toFixed(3)} ms @ ${small}`,
    ratio,
    target: '≤ 1.5',
    meets: ratio <= 1.5,
  };
}
