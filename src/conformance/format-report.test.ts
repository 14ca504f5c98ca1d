import { describe, expect, it } from 'vitest';
import { formatJson } from './format-json.ts';
import { escapeXml, formatJUnit } from './format-junit.ts';
import { formatTable } from './format-table.ts';
import { sampleReport } from './report-fixture.test-support.ts';
import { summarize } from './summarize.ts';

describe('summarize', () => {
  const rows = sampleReport().results;
  const without = (...ids: string[]) => rows.filter((r) => !ids.includes(r.id));

  it('counts by status and level; a failed MUST makes the run not conformant, whatever else', () => {
    expect(summarize(rows)).toEqual({
      total: 4,
      passed: 1,
      failed: 2,
      skipped: 1,
      notApplicable: 0,
      mustFailed: 1,
      mustSkipped: 1,
      shouldFailed: 1,
      verdict: 'not-conformant',
      ok: false,
    });
  });

  it('calls a run with a skipped MUST check and no failed one incomplete, not conformant', () => {
    expect(summarize(without('relay.create.receipt'))).toMatchObject({ failed: 1, mustFailed: 0, mustSkipped: 1, verdict: 'incomplete', ok: false });
  });

  it('calls a run conformant only when every MUST check ran and passed (SHOULD failures and skips do not count)', () => {
    const shouldSkipped = { ...rows[2]!, id: 'auth.bearer-token', status: 'skip' as const };
    expect(summarize([...without('relay.create.receipt', 'legacy.app-config'), shouldSkipped])).toMatchObject({
      failed: 1,
      skipped: 1,
      mustFailed: 0,
      mustSkipped: 0,
      verdict: 'conformant',
      ok: true,
    });
  });
});

describe('formatTable', () => {
  it('prints one aligned row per check, reasons under failures and skips, and the verdict', () => {
    const text = formatTable(sampleReport());
    const lines = text.split('\n');
    expect(lines[0]).toBe('Relay conformance of http://relay.test/api  (interface all, 2026-01-01T00:00:00.000Z, 1234 ms)');
    expect(lines[2]).toMatch(/^STATUS {2}LEVEL {3}ID {22}SECTION {2}TITLE$/);
    expect(lines).toContain('PASS    MUST    config.fields           2.2      Config fields');
    expect(lines).toContain('FAIL    MUST    relay.create.receipt    2.1      Create receipt');
    expect(lines).toContain('        └ signature is missing');
    expect(lines).toContain('SKIP    MUST    legacy.app-config       2.6      Legacy app config');
    expect(lines).toContain('        └ no legacy app given');
    expect(text).not.toContain('5 fields');
    expect(lines.at(-2)).toBe('4 checks: 1 passed, 2 failed (1 MUST, 1 SHOULD), 1 skipped (1 MUST). NOT conformant: 1 MUST check failed');
    expect(text).not.toMatch(/\x1b\[/);
  });

  it('shows pass notes when verbose and colours when asked', () => {
    expect(formatTable(sampleReport(), { verbose: true })).toContain('        └ 5 fields');
    const coloured = formatTable(sampleReport(), { color: true });
    expect(coloured).toContain('\x1b[31mFAIL  \x1b[0m');
    expect(coloured).toContain('\x1b[32mPASS  \x1b[0m');
  });

  it('says incomplete when no MUST check failed but one was skipped', () => {
    const report = sampleReport(sampleReport().results.filter((r) => r.id !== 'relay.create.receipt'));
    expect(formatTable(report)).toMatch(
      /3 checks: 1 passed, 1 failed \(0 MUST, 1 SHOULD\), 1 skipped \(1 MUST\)\. INCOMPLETE: no MUST check failed, but 1 MUST check did not run\n$/,
    );
  });

  it('says conformant when every MUST check ran and passed', () => {
    const report = sampleReport(sampleReport().results.filter((r) => r.id !== 'relay.create.receipt' && r.id !== 'legacy.app-config'));
    expect(formatTable(report)).toMatch(/2 checks: 1 passed, 1 failed \(0 MUST, 1 SHOULD\), 0 skipped \(0 MUST\)\. conformant: every MUST check passed\n$/);
  });
});

describe('formatJUnit', () => {
  const xml = formatJUnit(sampleReport());

  it('has one testsuite with the counts and one testcase per check', () => {
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="relay-conformance" tests="4" failures="2" errors="0" skipped="1" time="1.234">',
      ),
    ).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('<testcase classname="relay-conformance.config" name="config.fields [MUST §2.2] Config fields" time="0.012"/>');
    expect(xml).toContain('<failure type="MUST" message="signature is missing">signature is missing\nlevel: MUST\nsection: 2.1</failure>');
    expect(xml).toContain('<skipped message="MUST check not run, the run is incomplete: no legacy app given"/>');
    expect(xml).toContain('<property name="verdict" value="not-conformant"/>');
    expect(xml).toContain('<property name="mustFailed" value="1"/>');
    expect(xml).toContain('<property name="mustSkipped" value="1"/>');
  });

  it('carries an incomplete verdict', () => {
    const incomplete = formatJUnit(sampleReport(sampleReport().results.filter((r) => r.id !== 'relay.create.receipt')));
    expect(incomplete).toContain('<property name="verdict" value="incomplete"/>');
    expect(incomplete).toContain('<property name="mustFailed" value="0"/>');
  });

  it('escapes markup and drops characters XML cannot hold', () => {
    expect(xml).toContain('message="status 201 is not declared &lt;200&gt; &amp; &apos;more&apos;"');
    expect(xml).toContain('match &lt;contract&gt; &amp; &quot;spec&quot;');
    expect(xml).toContain('x-emulator-choice: #/paths/~1Account~1create/post');
    expect(xml).not.toContain('\u0001');
    expect(escapeXml('a\u0000b\u0008c\td')).toBe('abc\td');
    // Balanced: every opened testcase is closed (self-closing or with a closing tag).
    const opened = (xml.match(/<testcase [^>]*[^/]>/g) ?? []).length;
    expect(opened).toBe((xml.match(/<\/testcase>/g) ?? []).length);
  });
});

describe('formatJson', () => {
  it('round-trips the report, verdict included', () => {
    const report = sampleReport();
    expect(JSON.parse(formatJson(report))).toEqual(report);
    expect(JSON.parse(formatJson(sampleReport(report.results.filter((r) => r.id !== 'relay.create.receipt')))).summary).toMatchObject({
      verdict: 'incomplete',
      mustSkipped: 1,
    });
  });
});
