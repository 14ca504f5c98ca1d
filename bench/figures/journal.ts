/** Journal throughput: relays with the state file's journal against relays without one (bench/journal-throughput.ts). */
import { median, type Figure } from '../stats.ts';

/** Relays per second from concurrent clients without a state file and with one (journaled, fsync'd), one of each per round. */
export interface JournalMeasurement {
  clients: number;
  plainRates: number[];
  journaledRates: number[];
  /** Journal bytes written per relay, before compaction. */
  journalBytesPerRelay: number;
}

export function journalFigure({ clients, plainRates, journaledRates, journalBytesPerRelay }: JournalMeasurement): Figure {
  const ratios = journaledRates.map((rate, round) => rate / plainRates[round]!);
  const ratio = median(ratios);
  return {
    name: `relay throughput with the state file's journal (${clients} clients)`,
    measured: `${median(journaledRates).toFixed(0)}/s journaled`,
    baseline: `${median(plainRates).toFixed(0)}/s no state file`,
    ratio,
    target: '≥ 0.8',
    meets: ratio >= 0.8,
    note:
      `paired ratios by round ${ratios.map((value) => value.toFixed(2)).join(', ')}; every change fdatasync'd before its answer (group commit), ` +
      `${(journalBytesPerRelay / 1024).toFixed(1)} KB of journal per relay before compaction`,
  };
}
