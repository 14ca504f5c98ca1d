import type { SponsorCostEntry } from '../assembly/emulator.ts';
import { addFigures, type SponsorCostFigures, zeroFigures } from './report.ts';

/** What the setup file leaves in a test's meta for the reporter. */
export interface TestMeta {
  sponsorCosts?: SponsorCostFigures;
  sponsorCostsEngine?: string;
}

interface TaskLike {
  name: string;
  suite?: TaskLike | undefined;
  /** Only the file's own task has one: the file, which is no part of the test's full name. */
  filepath?: string;
  file?: { filepath: string } | undefined;
}

/** `file > describe > test`: the label a test's transactions are accepted under (the report splits it back into file and full name). */
export function labelOf(task: TaskLike, relativePath: (file: string) => string): string {
  const names: string[] = [];
  for (let at: TaskLike | undefined = task; at && at.filepath === undefined; at = at.suite) names.unshift(at.name);
  return [task.file ? relativePath(task.file.filepath) : '', ...names].join(' > ');
}

/** The figures of a test's entries, in the report's numbers. */
export function costFigures(entries: SponsorCostEntry[]): SponsorCostFigures {
  return entries.reduce<SponsorCostFigures>(
    (total, entry) =>
      addFigures(total, {
        transactions: entry.transactions,
        feeLamports: Number(entry.feeLamports),
        rentLamports: Number(entry.rentLamports),
        sponsorLamports: Number(entry.sponsorLamports),
        computeUnits: Number(entry.computeUnits),
        ...(entry.paidTokens.length > 0
          ? { paidTokens: entry.paidTokens.map(({ mint, amount, lamports }) => ({ mint, amount: Number(amount), lamports: Number(lamports) })) }
          : {}),
      }),
    zeroFigures(),
  );
}
