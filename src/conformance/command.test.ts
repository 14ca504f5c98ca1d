import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { EXIT_INCOMPLETE, EXIT_MUST_FAILED, EXIT_OK, EXIT_UNREACHABLE, EXIT_USAGE, parseLegacy, runConformanceCommand } from './command.ts';
import { FAKE_API_KEY, FAKE_BASE_URL, fakeConfig, fakeFetch, json, withApiKey } from './fake-target.test-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'relay-conformance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sink() {
  let text = '';
  return {
    write(s: string, done: () => void) {
      text += s;
      done();
    },
    get text() {
      return text;
    },
  };
}

const walletsAsked: string[] = [];
function target(config = fakeConfig()) {
  return fakeFetch({
    'GET /api/Transaction/config': withApiKey(() => json(config)),
    'POST /api/Account/gethistory': withApiKey((_r, url) => {
      walletsAsked.push(url.searchParams.get('WalletAddress') ?? '');
      return json({ transactions: [{ signature: '5'.repeat(88), slot: 3, blockTime: 1_700_000_000 }] });
    }),
  });
}

async function run(args: string[], fetch = target()) {
  const stdout = sink();
  const stderr = sink();
  const code = await runConformanceCommand(args, { stdout, stderr, fetch, env: {} });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const base = ['--base-url', FAKE_BASE_URL, '--api-key', FAKE_API_KEY];

describe('relay-emulator conformance', () => {
  it('prints the usage with --help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toMatch(/^Usage: relay-emulator conformance --base-url URL --api-key KEY/);
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', FAKE_BASE_URL], /--api-key is required/],
    [['--base-url', 'not a url', '--api-key', 'k'], /--base-url is not a URL/],
    [[...base, '--bogus'], /Unknown option '--bogus'/],
    [[...base, '--legacy', 'devnet'], /--legacy must be ENV\/INDEX/],
    [[...base, '--report', 'xml'], /--report must be junit or json, not xml/],
    [[...base, '--out', 'report.txt'], /--out needs --report/],
    [[...base, '--timeout', '0'], /--timeout must be a positive number/],
    [[...base, '--interface', 'both'], /--interface must be one of current, legacy, all, kora, not both/],
    [['--interface', 'kora'], /--interface kora checks Kora's JSON-RPC: give --kora-url URL too/],
    [['--interface', 'kora', '--kora-url', 'nope'], /--kora-url is not a URL: nope/],
    [[...base, '--interface', 'legacy'], /--interface legacy checks a legacy app: give --legacy ENV\/INDEX too/],
    [['--base-url', FAKE_BASE_URL, '--interface', 'all', '--legacy', 'devnet/1'], /--api-key is required/],
    [[...base, '--mint', 'not-base58-0OIl'], /--mint is not a base58 address/],
  ])('refuses %j with exit 2', async (args, message) => {
    const { code, stderr } = await run(args as string[]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('Usage: relay-emulator conformance');
  });

  it('refuses a keypair file it cannot read in one line, without the usage text', async () => {
    const { code, stderr } = await run([...base, '--owner-keypair', join(dir, 'missing.json')]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toBe(`relay-emulator conformance: cannot read --owner-keypair ${join(dir, 'missing.json')}: it cannot be read (ENOENT)\n`);
  });

  it('refuses a keypair file that is not the Solana CLI format', async () => {
    const file = join(dir, 'bad-keypair.json');
    writeFileSync(file, JSON.stringify([1, 2, 3]));
    const { code, stderr } = await run([...base, '--owner-keypair', file]);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toMatch(/is not a Solana CLI keypair/);
  });

  it('prints the table and exits 0 when every MUST check ran and passed (a leading "conformance" is accepted)', async () => {
    const { code, stdout, stderr } = await run(['conformance', ...base, '--only', 'config.']);
    expect(code).toBe(EXIT_OK);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/PASS {4}MUST {4}config\.fields/);
    expect(stdout).toMatch(/2 checks: 2 passed, 0 failed \(0 MUST, 0 SHOULD\), 0 skipped \(0 MUST\)\. conformant/);
  });

  it('reports checks of the interface not offered as N/A, not skipped, and exits 0 (--interface current is the default)', async () => {
    const { code, stdout } = await run([...base, '--only', 'config.,legacy.app-config']);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toMatch(/N\/A {5}MUST {4}legacy\.app-config/);
    expect(stdout).toMatch(/3 checks: 2 passed, 0 failed \(0 MUST, 0 SHOULD\), 0 skipped \(0 MUST\), 1 not applicable \(--interface current\)\. conformant/);
    const xml = join(dir, 'scope.xml');
    expect((await run([...base, '--only', 'config.,legacy.app-config', '--out', xml])).code).toBe(EXIT_OK);
    expect(readFileSync(xml, 'utf8')).toMatch(
      /<property name="interface" value="current"\/>[^]*<skipped message="not applicable: this run checks the current interface only/,
    );
  });

  it('runs a legacy-only target without an API key, and the current checks are N/A', async () => {
    const { code, stdout } = await run(['--base-url', FAKE_BASE_URL, '--interface', 'legacy', '--legacy', 'devnet/1', '--only', 'config.,legacy.app-config']);
    // The fake has no legacy app: that MUST check is skipped (incomplete), and config.* is out of scope.
    expect(code).toBe(EXIT_INCOMPLETE);
    expect(stdout).toMatch(/N\/A {5}MUST {4}config\.fields/);
    expect(stdout).toMatch(/SKIP {4}MUST {4}legacy\.app-config/);
  });

  it('stops at once with one line and exit 4 when the base URL cannot be reached', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const stdout = sink();
    const stderr = sink();
    const url = `http://127.0.0.1:${closed}/api`;
    const code = await runConformanceCommand(['--base-url', url, '--api-key', 'k'], { stdout, stderr, env: {} });
    expect(code).toBe(EXIT_UNREACHABLE);
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe(`relay-emulator conformance: cannot reach ${url}: ECONNREFUSED 127.0.0.1:${closed}\n`);
  });

  it('exits 3, incomplete, when a MUST check was skipped and none failed, in the table and every report', async () => {
    const args = [...base, '--legacy', 'devnet/1', '--only', 'config.,legacy.app-config'];
    const table = await run(args);
    expect(table.code).toBe(EXIT_INCOMPLETE);
    expect(table.stdout).toMatch(/SKIP {4}MUST {4}legacy\.app-config/);
    expect(table.stdout).toMatch(/3 checks: 2 passed, 0 failed \(0 MUST, 0 SHOULD\), 1 skipped \(1 MUST\)\. INCOMPLETE/);
    const json = await run([...args, '--report', 'json']);
    expect(json.code).toBe(EXIT_INCOMPLETE);
    expect(JSON.parse(json.stdout).summary).toMatchObject({ verdict: 'incomplete', ok: false, mustFailed: 0, mustSkipped: 1 });
    const out = join(dir, 'incomplete.xml');
    expect((await run([...args, '--out', out])).code).toBe(EXIT_INCOMPLETE);
    expect(readFileSync(out, 'utf8')).toContain('<property name="verdict" value="incomplete"/>');
  });

  it('exits 1 when a MUST check fails', async () => {
    const { RpcEnvironment, ...renamed } = fakeConfig();
    const { code, stdout } = await run([...base, '--only', 'config.'], target({ ...renamed, rpcEnvironment: RpcEnvironment }));
    expect(code).toBe(EXIT_MUST_FAILED);
    expect(stdout).toMatch(/FAIL {4}MUST {4}config\.fields/);
    expect(stdout).toContain('└ RpcEnvironment is missing (found rpcEnvironment');
  });

  it('writes the JSON report to stdout and the table to stderr with --report json', async () => {
    const { code, stdout, stderr } = await run([...base, '--only', 'config.fields', '--report', 'json']);
    expect(code).toBe(EXIT_OK);
    expect(JSON.parse(stdout)).toMatchObject({ target: { baseUrl: FAKE_BASE_URL }, results: [{ id: 'config.fields', status: 'pass' }] });
    expect(stderr).toMatch(/config\.fields/);
  });

  it('writes JUnit XML to --out (format from the .xml name)', async () => {
    const out = join(dir, 'conformance.xml');
    const { code, stdout } = await run([...base, '--only', 'config.', '--out', out]);
    expect(code).toBe(EXIT_OK);
    expect(stdout).toContain(`junit report written to ${out}`);
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml[^]*<testsuite name="relay-conformance" tests="2" failures="0"/);
  });

  it('reads --owner-keypair in the Solana CLI format and uses that owner', async () => {
    const owner = Keypair.generate();
    const file = join(dir, 'owner.json');
    writeFileSync(file, JSON.stringify(Array.from(owner.secretKey)));
    const { code } = await run([...base, '--owner-keypair', file, '--only', 'history.entries', '--timeout', '2000']);
    expect(code).toBe(EXIT_OK);
    expect(walletsAsked).toContain(owner.publicKey.toBase58());
  });

  it('parses ENV/INDEX', () => {
    expect(parseLegacy('devnet/1')).toEqual({ environment: 'devnet', index: 1 });
    expect(parseLegacy('team/dev/12')).toEqual({ environment: 'team/dev', index: 12 });
    expect(() => parseLegacy('/1')).toThrow(/ENV\/INDEX/);
    expect(() => parseLegacy('devnet/x')).toThrow(/ENV\/INDEX/);
  });
});
