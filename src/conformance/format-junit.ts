import type { CheckResult, ConformanceReport } from './types.ts';

const SUITE = 'relay-conformance';

/**
 * JUnit XML of the report: one testsuite, one testcase per check (classname
 * `relay-conformance.<group>`, the id's first segment), `<failure type="MUST|SHOULD">` for
 * failures and `<skipped>` for skips, each with the reason (a skipped MUST says so first). The
 * suite's properties carry the verdict (conformant, incomplete, not-conformant).
 */
export function formatJUnit(report: ConformanceReport): string {
  const s = report.summary;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  // A check of an interface out of scope is a skipped testcase to JUnit readers, which have no other word for it.
  const counts = `tests="${s.total}" failures="${s.failed}" errors="0" skipped="${s.skipped + s.notApplicable}" time="${seconds(report.durationMs)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${SUITE}" ${counts}>`,
    `  <testsuite name="${SUITE}" ${counts} timestamp="${escapeXml(report.startedAt)}">`,
    '    <properties>',
    `      <property name="baseUrl" value="${escapeXml(report.target.baseUrl)}"/>`,
    `      <property name="interface" value="${report.target.interface}"/>`,
    `      <property name="verdict" value="${s.verdict}"/>`,
    `      <property name="mustFailed" value="${s.mustFailed}"/>`,
    `      <property name="mustSkipped" value="${s.mustSkipped}"/>`,
    `      <property name="shouldFailed" value="${s.shouldFailed}"/>`,
    `      <property name="notApplicable" value="${s.notApplicable}"/>`,
    '    </properties>',
    ...report.results.map(testcase),
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function testcase(r: CheckResult): string {
  const group = r.id.split('.')[0] ?? r.id;
  const name = `${r.id} [${r.level} §${r.section}] ${r.title}`;
  const open = `    <testcase classname="${SUITE}.${escapeXml(group)}" name="${escapeXml(name)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const reason = r.reason ?? '';
  if (r.status === 'fail') {
    const detail = [reason, `level: ${r.level}`, `section: ${r.section}`, ...(r.choice ? [`x-emulator-choice: ${r.choice}`] : [])].join('\n');
    return `${open}>\n      <failure type="${r.level}" message="${escapeXml(reason)}">${escapeXml(detail)}</failure>\n    </testcase>`;
  }
  if (r.status === 'not-applicable') return `${open}>\n      <skipped message="${escapeXml(reason)}"/>\n    </testcase>`;
  if (r.status === 'skip') {
    const message = r.level === 'MUST' ? `MUST check not run, the run is incomplete: ${reason}` : reason;
    return `${open}>\n      <skipped message="${escapeXml(message)}"/>\n    </testcase>`;
  }
  return `${open}/>`;
}

/** Escapes text for XML attributes and content, dropping characters XML 1.0 cannot carry. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
