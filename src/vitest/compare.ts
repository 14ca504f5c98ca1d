import { lamportsText, type SponsorCostReport, type SponsorCostRow } from './report.ts';

/** How a report stands against the committed snapshot. */
export interface CostComparison {
  /** Tests whose sponsor cost rose by more than the tolerance: what fails a check. */
  rose: Change[];
  /** Rose within the tolerance. */
  roseWithin: Change[];
  dropped: Change[];
  added: SponsorCostRow[];
  removed: SponsorCostRow[];
  unchanged: number;
  /** Where the report's engine or version differs from the snapshot's: the figures may differ for that alone. */
  warnings: string[];
}

export interface Change {
  file: string;
  test: string;
  before: number;
  after: number;
}

const key = (row: { file: string; test: string }) => `${row.file}\u0000${row.test}`;

/** Compares each test's sponsorLamports; `tolerance` is a percentage of the snapshot's figure (0: any rise fails). */
export function compareCosts(snapshot: SponsorCostReport, report: SponsorCostReport, tolerance: number): CostComparison {
  const before = new Map(snapshot.tests.map((row) => [key(row), row]));
  const after = new Map(report.tests.map((row) => [key(row), row]));
  const comparison: CostComparison = { rose: [], roseWithin: [], dropped: [], added: [], removed: [], unchanged: 0, warnings: [] };
  for (const row of report.tests) {
    const old = before.get(key(row));
    if (!old) {
      comparison.added.push(row);
      continue;
    }
    const change: Change = { file: row.file, test: row.test, before: old.sponsorLamports, after: row.sponsorLamports };
    if (row.sponsorLamports > old.sponsorLamports) {
      const limit = old.sponsorLamports + (Math.abs(old.sponsorLamports) * tolerance) / 100;
      (row.sponsorLamports > limit ? comparison.rose : comparison.roseWithin).push(change);
    } else if (row.sponsorLamports < old.sponsorLamports) comparison.dropped.push(change);
    else comparison.unchanged += 1;
  }
  for (const row of snapshot.tests) if (!after.has(key(row))) comparison.removed.push(row);
  if (snapshot.engine !== report.engine) comparison.warnings.push(`the snapshot was made on ${snapshot.engine}, this report on ${report.engine}`);
  if (snapshot.version !== report.version)
    comparison.warnings.push(`the snapshot was made by relay-emulator ${snapshot.version}, this report by ${report.version}`);
  return comparison;
}

const name = (change: { file: string; test: string }) => (change.file ? `${change.file} > ${change.test}` : change.test);
const percent = (change: Change) => (change.before === 0 ? 'new cost' : `${(((change.after - change.before) / Math.abs(change.before)) * 100).toFixed(1)}%`);

/** The comparison as text, one line each (what `costs check` and `costs diff` print). */
export function comparisonText(comparison: CostComparison, tolerance: number): string {
  const lines = comparison.warnings.map((warning) => `warning: ${warning}`);
  for (const change of comparison.rose) {
    lines.push(`ROSE ${name(change)}: ${lamportsText(change.before)} -> ${lamportsText(change.after)} lamports (+${percent(change)}, tolerance ${tolerance}%)`);
  }
  for (const change of comparison.roseWithin)
    lines.push(`rose within tolerance ${name(change)}: ${change.before} -> ${change.after} lamports (+${percent(change)})`);
  for (const change of comparison.dropped) lines.push(`dropped ${name(change)}: ${change.before} -> ${change.after} lamports (${percent(change)})`);
  for (const row of comparison.added) lines.push(`new ${name(row)}: ${lamportsText(row.sponsorLamports)} lamports`);
  for (const row of comparison.removed) lines.push(`removed ${name(row)} (was ${row.sponsorLamports} lamports)`);
  lines.push(
    `${comparison.rose.length} rose past the tolerance, ${comparison.roseWithin.length} within it, ${comparison.dropped.length} dropped, ` +
      `${comparison.added.length} new, ${comparison.removed.length} removed, ${comparison.unchanged} unchanged`,
  );
  return `${lines.join('\n')}\n`;
}

/** The comparison as a Markdown table, for `$GITHUB_STEP_SUMMARY`. */
export function comparisonMarkdown(comparison: CostComparison, report: SponsorCostReport, tolerance: number): string {
  const rows: string[] = [];
  const sol = (lamports: number) => (lamports / 1e9).toFixed(9).replace(/\.?0+$/, '');
  for (const change of comparison.rose) rows.push(`| ❌ rose | ${name(change)} | ${change.before} | ${change.after} | ${percent(change)} |`);
  for (const change of comparison.roseWithin)
    rows.push(`| rose (within ${tolerance}%) | ${name(change)} | ${change.before} | ${change.after} | ${percent(change)} |`);
  for (const change of comparison.dropped) rows.push(`| dropped | ${name(change)} | ${change.before} | ${change.after} | ${percent(change)} |`);
  for (const row of comparison.added) rows.push(`| new | ${name(row)} | | ${row.sponsorLamports} | |`);
  for (const row of comparison.removed) rows.push(`| removed | ${name(row)} | ${row.sponsorLamports} | | |`);
  return (
    `### Sponsor costs (${report.engine}, relay-emulator ${report.version})\n\n` +
    (comparison.warnings.length > 0 ? `${comparison.warnings.map((warning) => `> ⚠️ ${warning}`).join('\n')}\n\n` : '') +
    (rows.length > 0
      ? `| change | test | before (lamports) | after (lamports) | % |\n|---|---|---:|---:|---:|\n${rows.join('\n')}\n\n`
      : 'No test changed its sponsor cost.\n\n') +
    `Total: ${report.totals.sponsorLamports} lamports (${sol(report.totals.sponsorLamports)} SOL) over ${report.totals.transactions} sponsored transactions; ` +
    `${comparison.unchanged} tests unchanged.\n`
  );
}
