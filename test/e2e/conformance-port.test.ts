/**
 * The conformance kit against the emulator on a real port, as CI and other implementations run
 * it: the `relay-emulator start` command in a child process, and the kit over real HTTP — both
 * importable (`runConformance` with the global fetch) and as the `relay-emulator conformance`
 * command with a JUnit report.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable, runConformance } from '../../src/index.ts';
import { CLI_ARGS, startCli, type CliProcess } from '../support/cli-process.ts';

const run = promisify(execFile);
const legacy = { environment: 'devnet', index: 1 };

describe('conformance of the emulator on a port', () => {
  let cli: CliProcess;
  const dir = mkdtempSync(join(tmpdir(), 'relay-conformance-'));
  beforeAll(async () => {
    cli = await startCli(['--port', '0', '--log-level', 'warn']);
  });
  afterAll(async () => {
    await cli?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes every MUST check over real HTTP, funding its scenarios through /__emulator', async () => {
    const report = await runConformance({ baseUrl: cli.baseUrl, apiKey: cli.apiKey, legacy, timeoutMs: 15_000 });
    expect(report.summary.mustFailed, formatTable(report)).toBe(0);
    expect(report.summary.verdict, formatTable(report)).toBe('conformant');
    expect(
      report.results.filter((r) => r.status === 'fail'),
      formatTable(report),
    ).toEqual([]);
    // The relay scenarios ran against the real server: nothing of them was skipped.
    const scenarios = report.results.filter((r) => r.id.startsWith('relay.'));
    expect(scenarios.length).toBeGreaterThan(5);
    expect(scenarios.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  });

  it('runs as `relay-emulator conformance` with a JUnit report and exit code 0', async () => {
    const out = join(dir, 'report.xml');
    const args = [
      'conformance',
      '--base-url',
      cli.baseUrl,
      '--api-key',
      cli.apiKey,
      '--legacy',
      `${legacy.environment}/${legacy.index}`,
      '--report',
      'junit',
      '--out',
      out,
      '--no-color',
    ];
    const { stdout } = await run(process.execPath, [...CLI_ARGS, ...args], { env: { ...process.env, RUST_LOG: 'error' }, timeout: 120_000 });
    expect(stdout).toMatch(/pass/i);
    const xml = readFileSync(out, 'utf8');
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toMatch(/<testsuite[^>]*failures="0"/);
    expect(xml).toContain('relay.create.lands');
    // A second node process loads the whole kit; on a busy 2-core machine that alone can pass 30 s.
  }, 120_000);

  it(
    'exits non-zero when a MUST check fails (a wrong API key fails every authenticated check)',
    async () => {
      const args = ['conformance', '--base-url', cli.baseUrl, '--api-key', 'not-the-key', '--only', 'config.', '--no-color'];
      const failed = await run(process.execPath, [...CLI_ARGS, ...args], { env: { ...process.env, RUST_LOG: 'error' }, timeout: 60_000 }).then(
        () => null,
        (error: { code?: number }) => error,
      );
      expect(failed?.code).toBe(1);
    },
    2 * 60_000,
  );
});
