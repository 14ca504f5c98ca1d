import type { SponsorCostEntry } from '../assembly/emulator.ts';
import { addFigures, type SponsorCostFigures, zeroFigures } from './report.ts';

/** What the setup file leaves in a test's meta for the reporter. */
export interface TestMeta {
  sponsorCosts?: SponsorCostFigures;
  sponsorCostsEngine?: string;
  /** The test's name in the report: its full name, numbered when the file has tests of the same full name. */
  sponsorCostsTest?: string;
}

interface TaskLike {
  name: string;
  type?: string;
  suite?: TaskLike | undefined;
  /** A suite's (and the file's) tasks. */
  tasks?: TaskLike[];
  /** Only the file's own task has one: the file, which is no part of the test's full name. */
  filepath?: string;
  file?: (TaskLike & { filepath: string }) | undefined;
}

/** `describe > test`, numbered ` (2)`, ` (3)`… in declaration order when the file has several tests of that full name. */
export function testNameOf(task: TaskLike): string {
  const name = fullName(task);
  if (!task.file) return name;
  const same = testsOf(task.file).filter((each) => fullName(each) === name);
  return same.length > 1 ? `${name} (${same.indexOf(task) + 1})` : name;
}

/** `file > describe > test`: the label a test's transactions are accepted under (the report splits it back into file and full name). */
export function labelOf(task: TaskLike, relativePath: (file: string) => string): string {
  return [task.file ? relativePath(task.file.filepath) : '', testNameOf(task)].join(' > ');
}

function fullName(task: TaskLike): string {
  const names: string[] = [];
  for (let at: TaskLike | undefined = task; at && at.filepath === undefined; at = at.suite) names.unshift(at.name);
  return names.join(' > ');
}

function testsOf(suite: TaskLike): TaskLike[] {
  return (suite.tasks ?? []).flatMap((task) => (task.tasks ? testsOf(task) : [task]));
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
