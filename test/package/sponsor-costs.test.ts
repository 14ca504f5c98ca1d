/**
 * Issue 44: what a sponsor pays, per test, as a user gets it. A scratch project installs the packed
 * tarball beside vitest and runs a suite (test/package/sponsor-costs/: transfers, an Account/create
 * whose rent the fee payer fronts, a test that relays nothing, a Kora relay paid in USDC) with
 * `sponsorCosts()` in its vitest config; each test's figures are the ledger's. Then the README's
 * commands: update, check (passes), a costlier test (check fails, naming it), a tolerance that lets
 * it pass, diff --markdown; and a server run whose client names its test in a header.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readmeBlock } from '../support/readme.ts';
import { run, userEnv, type Ran } from '../support/user-shell.ts';

const SUITE = fileURLToPath(new URL('./sponsor-costs/', import.meta.url));
const MINUTE = 60_000;
const USDC = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const expectSuccess = (ran: Ran) => expect(ran, ran.output).toMatchObject({ code: 0 });

interface Row {
  file: string;
  test: string;
  transactions: number;
  feeLamports: number;
  rentLamports: number;
  sponsorLamports: number;
  computeUnits: number;
  paidTokens?: { mint: string; amount: number; lamports: number }[];
}

describe('sponsor costs in CI', () => {
  const root = mkdtempSync(join(tmpdir(), 'relay-emulator-sponsor-costs-'));
  let env: NodeJS.ProcessEnv;
  const report = () => JSON.parse(readFileSync(join(root, 'sponsor-costs.json'), 'utf8')) as { version: string; engine: string; tests: Row[]; totals: Row };
  const row = (test: string) => report().tests.find((entry) => entry.test === test)!;

  beforeAll(async () => {
    for (const file of ['relays.test.mjs', 'server-client.mjs']) copyFileSync(join(SUITE, file), join(root, file));
    // The README's config, as written (it is plain JavaScript too).
    writeFileSync(join(root, 'vitest.config.mjs'), readmeBlock('Sponsor costs in CI').code);
    const manifest = {
      name: 'sponsor-cost-suite',
      private: true,
      type: 'module',
      devDependencies: { 'relay-emulator': `file:${inject('packedTarball')}`, vitest: '4.1.12', '@solana/web3.js': '^1.98.4', '@solana/spl-token': '0.4.15' },
    };
    writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // Kora with a margin price: a relay pays 1.5 times its fee in USDC (the mock oracle: ten base units a lamport).
    const kora = [
      '[kora]',
      'rate_limit = 100',
      '[validation]',
      'max_allowed_lamports = 1000000',
      'max_signatures = 10',
      'price_source = "Mock"',
      'allowed_programs = ["11111111111111111111111111111111", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"]',
      `allowed_tokens = ["${USDC}"]`,
      `allowed_spl_paid_tokens = ["${USDC}"]`,
      'disallowed_accounts = []',
      '[validation.price]',
      'type = "margin"',
      'margin = 0.5',
    ];
    writeFileSync(join(root, 'kora.toml'), `${kora.join('\n')}\n`);
    env = userEnv({ KORA_TOML: join(root, 'kora.toml') });
    expectSuccess(await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: root, env, timeoutMs: 5 * MINUTE }));
  }, 6 * MINUTE);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(
    'records each test’s relays, equal to the ledger’s figures, with one line of config and nothing in the tests',
    async () => {
      const ran = await run('npx', ['vitest', 'run'], { cwd: root, env, timeoutMs: 3 * MINUTE });
      expectSuccess(ran);
      expect(ran.output).toMatch(/Sponsor costs \(litesvm\): what the fee payer spent, top 8 of 8 tests\n/);
      const { version, engine, tests, totals } = report();
      expect(version).toMatch(/^\d+\.\d+\.\d+/);
      expect(engine).toBe('litesvm');
      expect(tests.map((entry) => `${entry.file} > ${entry.test}`)).toEqual([
        'relays.test.mjs > accounts > creates a token account, the fee payer fronting its rent',
        'relays.test.mjs > at once > sends one',
        'relays.test.mjs > at once > sends three',
        'relays.test.mjs > pays Kora in USDC',
        'relays.test.mjs > relays nothing',
        'relays.test.mjs > transfers > sends USDC to Bob',
        'relays.test.mjs > twice > has one name (1)',
        'relays.test.mjs > twice > has one name (2)',
      ]);
      // Concurrent tests, each charged its own relays; two tests of one name, each its own row.
      expect(row('at once > sends three')).toMatchObject({ transactions: 3, sponsorLamports: 30_000 });
      expect(row('at once > sends one')).toMatchObject({ transactions: 1, sponsorLamports: 10_000 });
      expect(row('twice > has one name (1)')).toMatchObject({ transactions: 1, sponsorLamports: 10_000 });
      expect(row('twice > has one name (2)')).toMatchObject({ transactions: 2, sponsorLamports: 20_000 });
      // Two transfers of two signatures each: 10,000 lamports of fees apiece, nothing else.
      expect(row('transfers > sends USDC to Bob')).toMatchObject({ transactions: 2, feeLamports: 20_000, rentLamports: 0, sponsorLamports: 20_000 });
      expect(row('transfers > sends USDC to Bob').computeUnits).toBeGreaterThan(0);
      // A token account's rent (165 bytes: 2,039,280 lamports) fronted by the fee payer, and the fee.
      expect(row('accounts > creates a token account, the fee payer fronting its rent')).toMatchObject({
        transactions: 1,
        feeLamports: 10_000,
        rentLamports: 2_039_280,
        sponsorLamports: 2_049_280,
      });
      expect(row('relays nothing')).toMatchObject({ transactions: 0, sponsorLamports: 0 });
      // Kora's signer paid the fee and was paid 150,000 USDC base units, worth 15,000 lamports at its price.
      expect(row('pays Kora in USDC')).toMatchObject({
        transactions: 1,
        sponsorLamports: 10_000,
        paidTokens: [{ mint: USDC, amount: 150_000, lamports: 15_000 }],
      });
      expect(totals).toMatchObject({ transactions: 11, sponsorLamports: 2_149_280 });
    },
    4 * MINUTE,
  );

  it(
    'runs the README’s commands: update, check passes, a costlier test fails check by name, a tolerance lets it pass, diff --markdown',
    async () => {
      const steps = readmeBlock('Sponsor costs in a GitHub Actions workflow').code;
      const commands = [...steps.matchAll(/^\s*(?:- )?run: (.+)$/gm)].map((match) => match[1]!.replace(/\s+#.*$/, ''));
      expect(commands).toEqual(['npx vitest run', 'npx relay-emulator costs diff --markdown >> "$GITHUB_STEP_SUMMARY"', 'npx relay-emulator costs check']);
      const config = readmeBlock('Sponsor costs in CI').code;
      expect(config).toContain("import { sponsorCosts } from 'relay-emulator/vitest';");
      expect(config).toContain('export default defineConfig({ plugins: [sponsorCosts()] });');

      expectSuccess(await run('npx', ['relay-emulator', 'costs', 'update'], { cwd: root, env }));
      expect(JSON.parse(readFileSync(join(root, '.sponsor-costs.json'), 'utf8'))).toEqual(report());
      const check = await run('sh', ['-c', commands[2]!], { cwd: root, env });
      expectSuccess(check);
      expect(check.output).toMatch(/0 rose past the tolerance, 0 within it, 0 dropped, 0 new, 0 removed, 8 unchanged/);

      // The transfers test sends a third transfer: 30,000 lamports where the snapshot holds 20,000.
      expectSuccess(await run('sh', ['-c', commands[0]!], { cwd: root, env: { ...env, COSTLIER: '1' }, timeoutMs: 3 * MINUTE }));
      const failed = await run('sh', ['-c', commands[2]!], { cwd: root, env });
      expect(failed.code).toBe(1);
      expect(failed.output).toContain(
        'ROSE relays.test.mjs > transfers > sends USDC to Bob: 20,000 (0.00002 SOL) -> 30,000 (0.00003 SOL) lamports (+50.0%, tolerance 0%)',
      );
      const tolerated = await run('npx', ['relay-emulator', 'costs', 'check', '--tolerance', '50'], { cwd: root, env });
      expectSuccess(tolerated);
      expect(tolerated.output).toContain('rose within tolerance relays.test.mjs > transfers > sends USDC to Bob: 20000 -> 30000 lamports (+50.0%)');
      const summary = join(root, 'summary.md');
      expectSuccess(await run('sh', ['-c', commands[1]!], { cwd: root, env: { ...env, GITHUB_STEP_SUMMARY: summary } }));
      const markdown = readFileSync(summary, 'utf8');
      expect(markdown).toContain('### Sponsor costs (litesvm, relay-emulator ');
      expect(markdown).toContain('| ❌ rose | relays.test.mjs > transfers > sends USDC to Bob | 20000 | 30000 | 50.0% |');
    },
    5 * MINUTE,
  );

  it(
    'writes the same report for a server run, by the X-Relay-Emulator-Test header, else the API key’s app',
    async () => {
      const out = join(root, 'server');
      mkdirSync(out, { recursive: true });
      const ran = await run('npx', ['relay-emulator', 'exec', '--sponsor-costs', 'server/costs.json', '--', 'node', 'server-client.mjs'], { cwd: root, env });
      expectSuccess(ran);
      const server = JSON.parse(readFileSync(join(out, 'costs.json'), 'utf8')) as { tests: Row[] };
      expect(server.tests.map(({ file, test, transactions, sponsorLamports }) => ({ file, test, transactions, sponsorLamports }))).toEqual([
        { file: '', test: 'app relay-emulator-dev-key', transactions: 1, sponsorLamports: 10_000 },
        { file: '', test: 'login flow', transactions: 1, sponsorLamports: 10_000 },
      ]);
    },
    3 * MINUTE,
  );
});
