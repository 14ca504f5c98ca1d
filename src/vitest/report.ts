import { isJsonWithKeys, OwnedFile, type OwnedFileKind } from '../base/disk/owned-file.ts';
import { boundedReadProblem, readBoundedText } from '../base/disk/read-file.ts';

/**
 * The sponsor-cost report (issue 44): what each test's sponsored transactions cost their fee payer,
 * as `relay-emulator/vitest` and `--sponsor-costs FILE` write it, and `relay-emulator costs`
 * compares with the committed snapshot. Its names are the contract's; lamports are numbers (a
 * test's costs are far below 2^53).
 */
export interface SponsorCostReport {
  /** relay-emulator's version. */
  version: string;
  /** The ledger engine the figures come from: they are deterministic on one engine. */
  engine: string;
  tests: SponsorCostRow[];
  totals: SponsorCostFigures;
}

export interface SponsorCostFigures {
  transactions: number;
  feeLamports: number;
  rentLamports: number;
  /** The fee payer's net loss: fees, plus rent it fronted, less what came back. */
  sponsorLamports: number;
  computeUnits: number;
  /** Kora relays paid in tokens: the mint, the amount, its lamport value at Kora's price. */
  paidTokens?: { mint: string; amount: number; lamports: number }[];
}

export interface SponsorCostRow extends SponsorCostFigures {
  /** The test file, relative to the project root ('' for a server run's label). */
  file: string;
  /** The test's full name (`describe > test`), or a server run's label. */
  test: string;
}

export const DEFAULT_REPORT = 'sponsor-costs.json';
export const DEFAULT_SNAPSHOT = '.sponsor-costs.json';

export function zeroFigures(): SponsorCostFigures {
  return { transactions: 0, feeLamports: 0, rentLamports: 0, sponsorLamports: 0, computeUnits: 0 };
}

export function addFigures(total: SponsorCostFigures, row: SponsorCostFigures): SponsorCostFigures {
  const sum: SponsorCostFigures = {
    transactions: total.transactions + row.transactions,
    feeLamports: total.feeLamports + row.feeLamports,
    rentLamports: total.rentLamports + row.rentLamports,
    sponsorLamports: total.sponsorLamports + row.sponsorLamports,
    computeUnits: total.computeUnits + row.computeUnits,
  };
  const tokens = [...(total.paidTokens ?? []), ...(row.paidTokens ?? [])];
  if (tokens.length > 0) {
    const byMint = new Map<string, { mint: string; amount: number; lamports: number }>();
    for (const { mint, amount, lamports } of tokens) {
      const known = byMint.get(mint) ?? { mint, amount: 0, lamports: 0 };
      byMint.set(mint, { mint, amount: known.amount + amount, lamports: known.lamports + lamports });
    }
    sum.paidTokens = [...byMint.values()];
  }
  return sum;
}

/** A report of these rows, sorted by file then test, with their totals. */
export function makeReport(rows: SponsorCostRow[], version: string, engine: string): SponsorCostReport {
  const tests = [...rows].sort((a, b) => a.file.localeCompare(b.file) || a.test.localeCompare(b.test));
  return { version, engine, tests, totals: tests.reduce<SponsorCostFigures>((total, row) => addFigures(total, row), zeroFigures()) };
}

/** A report of a suite of some thousand tests is well under a megabyte; this holds any. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** The report as a file the emulator owns (decision 0010): it replaces only a report, an empty file, or nothing. */
export function reportFileKind(label: string): OwnedFileKind {
  return {
    label,
    what: 'a sponsor-cost report',
    isOurs: (text) => isJsonWithKeys(text, ['version', 'engine', 'tests', 'totals']),
    maxBytes: MAX_REPORT_BYTES,
  };
}

/** Claims `path` for a report now (refused in one line: PATH_REFUSED), to write it later. */
export function claimReport(path: string, label: string): { path: string; write(report: SponsorCostReport): void } {
  const file = OwnedFile.claim(path, reportFileKind(label));
  return { path, write: (report) => file.write(reportText(report)) };
}

/** Writes a report at `path`, where nothing is, or over an empty file or a report. Throws PATH_REFUSED otherwise. */
export function writeReport(path: string, report: SponsorCostReport, label = 'the sponsor-cost report'): void {
  claimReport(path, label).write(report);
}

export function reportText(report: SponsorCostReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const FIGURES = ['transactions', 'feeLamports', 'rentLamports', 'sponsorLamports', 'computeUnits'] as const;

/**
 * Reads a report or snapshot, checked whole: each row's file and test are strings, each figure a
 * whole number (a string "99" once made a limit by concatenation), and no test is listed twice (a
 * duplicate hid a rise). Throws an Error naming the file and what is wrong, one line.
 */
export function readReport(path: string): SponsorCostReport {
  let text: string;
  try {
    text = readBoundedText(path, MAX_REPORT_BYTES);
  } catch (error) {
    throw new Error(`${path}: ${boundedReadProblem(error)}`);
  }
  const what = 'a sponsor-cost report is what relay-emulator/vitest or --sponsor-costs writes';
  let report: SponsorCostReport;
  try {
    report = JSON.parse(text) as SponsorCostReport;
  } catch {
    throw new Error(`${path}: is not JSON; ${what}`);
  }
  if (typeof report !== 'object' || report === null || !Array.isArray(report.tests)) {
    throw new Error(`${path}: has no "tests" list; ${what}`);
  }
  const seen = new Set<string>();
  for (const [index, row] of report.tests.entries()) {
    const at = `tests[${index}]`;
    if (typeof row !== 'object' || row === null || typeof row.file !== 'string' || typeof row.test !== 'string') {
      throw new Error(`${path}: ${at} has no "file" and "test" strings; ${what}`);
    }
    for (const figure of FIGURES) {
      if (!Number.isSafeInteger(row[figure]))
        throw new Error(`${path}: ${at} (${row.test}): "${figure}" is ${JSON.stringify(row[figure])}, not a whole number`);
    }
    const key = `${row.file}\u0000${row.test}`;
    if (seen.has(key)) throw new Error(`${path}: lists ${row.file ? `${row.file} > ` : ''}${row.test} twice; each test has one row`);
    seen.add(key);
  }
  return report;
}

/** Lamports with SOL beside them: `2,049,280 (0.00204928 SOL)`. */
export function lamportsText(lamports: number): string {
  const sol = (lamports / 1e9).toFixed(9).replace(/\.?0+$/, '');
  return `${lamports.toLocaleString('en-US')} (${sol} SOL)`;
}
