import { readFileSync, writeFileSync } from 'node:fs';

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

export function writeReport(path: string, report: SponsorCostReport): void {
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

/** Reads a report or snapshot; throws an Error naming the file and what is wrong, one line. */
export function readReport(path: string): SponsorCostReport {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let report: SponsorCostReport;
  try {
    report = JSON.parse(text) as SponsorCostReport;
  } catch {
    throw new Error(`${path}: is not JSON; a sponsor-cost report is what relay-emulator/vitest or --sponsor-costs writes`);
  }
  if (typeof report !== 'object' || report === null || !Array.isArray(report.tests)) {
    throw new Error(`${path}: has no "tests" list; a sponsor-cost report is what relay-emulator/vitest or --sponsor-costs writes`);
  }
  return report;
}

/** Lamports with SOL beside them: `2,049,280 (0.00204928 SOL)`. */
export function lamportsText(lamports: number): string {
  const sol = (lamports / 1e9).toFixed(9).replace(/\.?0+$/, '');
  return `${lamports.toLocaleString('en-US')} (${sol} SOL)`;
}
