import { describe, expect, it } from 'vitest';
import { formatJson } from './format-json.ts';
import { escapeXml, formatJUnit } from './format-junit.ts';
import { formatTable } from './format-table.ts';
import { sampleReport } from './report-fixture.test-support.ts';
import { summarize } from './summarize.ts';

describe('summarize', () => {
  it('counts by status and level; ok means no MUST failure', () => {
    const report = sampleReport();
    expect(report.summary).toEqual({ total: 4, passed: 1, failed: 2, skipped: 1, mustFailed: 1, shouldFailed: 1, ok: false });
    const shouldOnly = report.results.filter((r) => r.level === 'SHOULD' || r.status !== 'fail');
    expect(summarize(shouldOnly)).toMatchObject({ failed: 1, mustFailed: 0, ok: true });
  });
});

describe('formatTable', () => {
  it('prints one aligned row per check, reasons under failures and skips, and the verdict', () => {
    const text = formatTable(sampleReport());
    const lines = text.split('\n');
    expect(lines[0]).toBe('Relay conformance of http://relay.test/api  (2026-01-01T00:00:00.000Z, 1234 ms)');
    expect(lines[2]).toMatch(/^STATUS {2}LEVEL {3}ID {22}SECTION {2}TITLE$/);
    expect(lines).toContain('PASS    MUST    config.fields           2.2      Config fields');
    expect(lines).toContain('FAIL    MUST    relay.create.receipt    2.1      Create receipt');
    expect(lines).toContain('        └ signature is missing');
    expect(lines).toContain('SKIP    MUST    legacy.app-config       2.6      Legacy app config');
    expect(lines).toContain('        └ no legacy app given');
    expect(text).not.toContain('5 fields');
    expect(lines.at(-2)).toBe('4 checks: 1 passed, 2 failed (1 MUST, 1 SHOULD), 1 skipped. NOT conformant: 1 MUST check failed');
    expect(text).not.toMatch(/\x1b\[/);
  });

  it('shows pass notes when verbose and colours when asked', () => {
    expect(formatTable(sampleReport(), { verbose: true })).toContain('        └ 5 fields');
    const coloured = formatTable(sampleReport(), { color: true });
    expect(coloured).toContain('\x1b[31mFAIL  \x1b[0m');
    expect(coloured).toContain('\x1b[32mPASS  \x1b[0m');
  });

  it('says conformant when no MUST check failed', () => {
    const report = sampleReport(sampleReport().results.filter((r) => r.id !== 'relay.create.receipt'));
    expect(formatTable(report)).toMatch(/3 checks: 1 passed, 1 failed \(0 MUST, 1 SHOULD\), 1 skipped\. conformant: no MUST check failed\n$/);
  });
});

describe('formatJUnit', () => {
  const xml = formatJUnit(sampleReport());

  it('has one testsuite with the counts and one testcase per check', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="relay-conformance" tests="4" failures="2" errors="0" skipped="1" time="1.234">')).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('<testcase classname="relay-conformance.config" name="config.fields [MUST §2.2] Config fields" time="0.012"/>');
    expect(xml).toContain('<failure type="MUST" message="signature is missing">signature is missing\nlevel: MUST\nsection: 2.1</failure>');
    expect(xml).toContain('<skipped message="no legacy app given"/>');
    expect(xml).toContain('<property name="mustFailed" value="1"/>');
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
  it('round-trips the report', () => {
    const report = sampleReport();
    expect(JSON.parse(formatJson(report))).toEqual(report);
  });
});
