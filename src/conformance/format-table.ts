import type { ConformanceReport } from './types.ts';

export interface TableOptions {
  /** ANSI colours. Default false. */
  color?: boolean;
  /** Also print the notes of passing checks. Default false (reasons of failures and skips are always printed). */
  verbose?: boolean;
}

const COLORS = {
  pass: '\x1b[32m',
  fail: '\x1b[31m',
  skip: '\x1b[33m',
  'not-applicable': '\x1b[2m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  reset: '\x1b[0m',
} as const;

/** A readable table of the report: one row per check, the reason under each failure and skip, a summary line. */
export function formatTable(report: ConformanceReport, options: TableOptions = {}): string {
  const paint = (style: keyof typeof COLORS, s: string) => (options.color ? `${COLORS[style]}${s}${COLORS.reset}` : s);
  const rows = report.results;
  const idWidth = Math.max(2, ...rows.map((r) => r.id.length));
  const sectionWidth = Math.max(7, ...rows.map((r) => r.section.length));
  const header = `${'STATUS'.padEnd(6)}  ${'LEVEL'.padEnd(6)}  ${'ID'.padEnd(idWidth)}  ${'SECTION'.padEnd(sectionWidth)}  TITLE`;
  const lines = [
    paint('bold', `Relay conformance of ${report.target.baseUrl}`) +
      paint('dim', `  (interface ${report.target.interface}, ${report.startedAt}, ${report.durationMs} ms)`),
    '',
    paint('bold', header),
  ];
  for (const r of rows) {
    const status = paint(r.status, (r.status === 'not-applicable' ? 'N/A' : r.status.toUpperCase()).padEnd(6));
    lines.push(`${status}  ${r.level.padEnd(6)}  ${r.id.padEnd(idWidth)}  ${r.section.padEnd(sectionWidth)}  ${r.title}`);
    if (r.reason && ((r.status !== 'pass' && r.status !== 'not-applicable') || options.verbose)) {
      lines.push(paint('dim', `${' '.repeat(8)}└ ${r.reason}`));
    }
  }
  lines.push('', summaryLine(report, paint));
  return `${lines.join('\n')}\n`;
}

function summaryLine(report: ConformanceReport, paint: (style: keyof typeof COLORS, s: string) => string): string {
  const s = report.summary;
  const checks = (n: number) => `${n} MUST check${n === 1 ? '' : 's'}`;
  const verdict = {
    conformant: () => paint('pass', 'conformant: every MUST check passed'),
    incomplete: () => paint('skip', `INCOMPLETE: no MUST check failed, but ${checks(s.mustSkipped)} did not run`),
    'not-conformant': () => paint('fail', `NOT conformant: ${checks(s.mustFailed)} failed`),
  }[s.verdict]();
  return (
    `${s.total} checks: ${s.passed} passed, ${s.failed} failed (${s.mustFailed} MUST, ${s.shouldFailed} SHOULD), ${s.skipped} skipped ` +
    `(${s.mustSkipped} MUST)${s.notApplicable ? `, ${s.notApplicable} not applicable (--interface ${report.target.interface})` : ''}. ${verdict}`
  );
}
