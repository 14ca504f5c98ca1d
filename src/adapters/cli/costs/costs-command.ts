import { parseArgs } from 'node:util';
import { parseArgsMessage } from '../../../base/words/parse-args-message.ts';
import { compareCosts, comparisonMarkdown, comparisonText } from '../../../vitest/compare.ts';
import { DEFAULT_REPORT, DEFAULT_SNAPSHOT, readReport, writeReport } from '../../../vitest/report.ts';

const USAGE = `Usage: relay-emulator costs update|check|diff [options]

What a sponsor pays, checked in CI. relay-emulator/vitest's sponsorCosts() (or --sponsor-costs FILE on
start and exec) writes ${DEFAULT_REPORT}; commit its snapshot, ${DEFAULT_SNAPSHOT}, and check each run against it.

  update                      copy the report to the snapshot (the file to commit)
  check [--tolerance PCT]     exit 1 when a test's sponsorLamports rose by more than PCT % (default 0), naming each;
                              drops, new tests and removed tests are listed and pass
  diff [--markdown]           print the comparison (--markdown: a table for $GITHUB_STEP_SUMMARY)

  --report FILE               the report (default ${DEFAULT_REPORT})
  --snapshot FILE             the snapshot (default ${DEFAULT_SNAPSHOT})
`;

/** The command's flags, as node:util parseArgs takes them (the hostile-path test reads every one: test/support/path-flags.ts). */
export const COSTS_OPTIONS = {
  report: { type: 'string' },
  snapshot: { type: 'string' },
  tolerance: { type: 'string' },
  markdown: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `relay-emulator costs …`: resolves with the exit code. */
export function runCostsCommand(argv: string[], io: { stdout: (text: string) => void; stderr: (text: string) => void }): number {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: COSTS_OPTIONS,
    }) as { values: Record<string, string | boolean | undefined>; positionals: string[] });
  } catch (error) {
    io.stderr(`relay-emulator costs: ${parseArgsMessage(error)} (relay-emulator costs --help)\n`);
    return 2;
  }
  const [command, ...extra] = positionals;
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (!['update', 'check', 'diff'].includes(command ?? '') || extra.length > 0) {
    io.stderr(`relay-emulator costs: give one of update, check, diff (relay-emulator costs --help)\n`);
    return 2;
  }
  // A decimal percentage, written out: '' was read as 0 and '0x10' as 16 by Number() (issue 53 item 14).
  const raw = values.tolerance as string | undefined;
  const tolerance = raw === undefined ? 0 : /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    io.stderr(`relay-emulator costs: --tolerance must be a percentage of at least 0, not "${String(values.tolerance)}"\n`);
    return 2;
  }
  const reportPath = (values.report as string | undefined) ?? DEFAULT_REPORT;
  const snapshotPath = (values.snapshot as string | undefined) ?? DEFAULT_SNAPSHOT;
  try {
    const report = readReport(reportPath);
    if (command === 'update') {
      // The snapshot replaces only a report, an empty file, or nothing (decision 0010).
      writeReport(snapshotPath, report, '--snapshot');
      io.stdout(`${snapshotPath}: ${report.tests.length} tests, ${report.totals.sponsorLamports} lamports in all (${report.engine}); commit it\n`);
      return 0;
    }
    const snapshot = readReport(snapshotPath);
    const comparison = compareCosts(snapshot, report, tolerance);
    if (command === 'diff' && values.markdown) io.stdout(comparisonMarkdown(comparison, report, tolerance));
    else io.stdout(comparisonText(comparison, tolerance));
    return command === 'check' && comparison.rose.length > 0 ? 1 : 0;
  } catch (error) {
    io.stderr(`relay-emulator costs: ${(error as Error).message}\n`);
    return 1;
  }
}
