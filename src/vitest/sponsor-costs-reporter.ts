import { relative, resolve } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';
import { EMULATOR_VERSION } from '../base/version.ts';
import { lamportsText, makeReport, type SponsorCostRow, writeReport } from './report.ts';
import type { TestMeta } from './test-label.ts';

export interface SponsorCostsOptions {
  /** Where the report is written, relative to the project root. Default `sponsor-costs.json`. */
  file?: string;
  /** How many of the costliest tests the table lists. Default 10. */
  top?: number;
  /** Print the table at the end of the run. Default true. */
  print?: boolean;
}

/** Collects each test's figures from its meta and writes the report, with a short table, at the end of the run. */
export class SponsorCostsReporter implements Reporter {
  readonly #rows = new Map<string, SponsorCostRow>();
  #engine = 'unknown';
  readonly #options: Required<SponsorCostsOptions>;
  readonly #root: string;

  constructor(root: string, options: SponsorCostsOptions = {}) {
    this.#root = root;
    this.#options = { file: 'sponsor-costs.json', top: 10, print: true, ...options };
  }

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta() as TestMeta;
    if (!meta.sponsorCosts) return;
    if (meta.sponsorCostsEngine) this.#engine = meta.sponsorCostsEngine;
    const file = relative(this.#root, testCase.module.moduleId);
    // Numbered when the file has tests of the same full name (the setup names it): one row each.
    const test = meta.sponsorCostsTest ?? testCase.fullName;
    this.#rows.set(`${file}\u0000${test}`, { file, test, ...meta.sponsorCosts });
  }

  onTestRunEnd(): void {
    if (this.#rows.size === 0) return;
    const report = makeReport([...this.#rows.values()], EMULATOR_VERSION, this.#engine);
    const path = resolve(this.#root, this.#options.file);
    try {
      writeReport(path, report, "sponsorCosts()'s file");
    } catch (error) {
      // A file there that is not a report (decision 0010): said in one line, and left as it is.
      process.stderr.write(`relay-emulator/vitest: ${(error as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    if (!this.#options.print) return;
    const costliest = [...report.tests].sort((a, b) => b.sponsorLamports - a.sponsorLamports).slice(0, this.#options.top);
    const lines = costliest.map((row) => `  ${lamportsText(row.sponsorLamports).padStart(28)}  ${row.transactions} tx  ${row.file} > ${row.test}`);
    process.stdout.write(
      `\nSponsor costs (${report.engine}): what the fee payer spent, top ${costliest.length} of ${report.tests.length} tests\n${lines.join('\n')}\n` +
        `  ${lamportsText(report.totals.sponsorLamports).padStart(28)}  ${report.totals.transactions} tx  total ` +
        `(fees ${report.totals.feeLamports}, rent ${report.totals.rentLamports}); written to ${relative(process.cwd(), path) || path}\n`,
    );
  }
}
