/**
 * Issue 54, the judge: examples/dapp (a Vite + React dapp with wallet-adapter's WalletMultiButton,
 * and its Playwright suite written against `relay-emulator/playwright`) in a scratch project that
 * installed the packed tarball beside `@playwright/test` and the dapp's published packages, run as
 * its README says, `npx playwright test` (its webServer builds the dapp with Vite and serves the
 * build), with Debian's chromium, twice: connect, approve, the relay's receipt and the balances, a
 * rejection, a failing transfer whose error the page shows, the web UI listing the wallet's requests;
 * `sponsor-costs.json` lists each test's cost; nothing of the run is left running.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureBrowser } from '../support/find-browser.ts';
import { readmeBlock } from '../support/readme.ts';
import { run, userEnv, type Ran } from '../support/user-shell.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/dapp/', import.meta.url));
const MINUTE = 60_000;
const DAPP_PORT = 4173;

/** Whether something listens on 127.0.0.1:`port`. */
function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
const expectSuccess = (ran: Ran) => expect(ran, ran.output).toMatchObject({ code: 0 });

describe('examples/dapp with relay-emulator/playwright, in a scratch project', () => {
  const root = mkdtempSync(join(tmpdir(), 'relay-emulator-dapp-'));
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    for (const entry of ['index.html', 'vite.config.mjs', 'src', 'playwright.config.mjs', 'tests', 'README.md'])
      cpSync(join(EXAMPLE, entry), join(root, entry), { recursive: true });
    // The README's test, in the example's suite: its import and test.use are the suite's own already.
    const block = readmeBlock('In the browser (Playwright and a test wallet)').code;
    expect(block).toContain("import { expect, test } from 'relay-emulator/playwright';");
    const readmeTest = block.slice(block.indexOf('test(', block.indexOf('test.use(') + 1));
    writeFileSync(join(root, 'tests/send.spec.mjs'), `${readFileSync(join(root, 'tests/send.spec.mjs'), 'utf8')}\n${readmeTest}`);
    const manifest = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    manifest.devDependencies['relay-emulator'] = `file:${inject('packedTarball')}`;
    writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // CI, as a pipeline sets it.
    env = userEnv({ PLAYWRIGHT_CHROMIUM: await ensureBrowser(), CI: '1' });
    expectSuccess(await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, env, timeoutMs: 5 * MINUTE }));
  }, 6 * MINUTE);
  // The dapp's node_modules (React, Vite, wallet-adapter): tens of thousands of files, slow to delete on a loaded machine.
  afterAll(() => rm(root, { recursive: true, force: true }), 2 * MINUTE);

  it(
    'passes the suite twice, lists each test’s sponsor cost, and leaves nothing running',
    async () => {
      for (const round of ['first', 'second']) {
        const ran = await run('npx', ['playwright', 'test'], { cwd: root, env, timeoutMs: 5 * MINUTE });
        expectSuccess(ran);
        expect(ran.output, round).toMatch(/5 passed/);
        const report = JSON.parse(readFileSync(join(root, 'sponsor-costs.json'), 'utf8')) as {
          tests: { file: string; test: string; transactions: number; feeLamports: number; sponsorLamports: number }[];
        };
        const rows = new Map(report.tests.map((row) => [row.test, row]));
        expect([...rows.keys()].sort()).toEqual([
          'connects, and the relay lands a transfer the wallet approved',
          'shows the dapp’s own error when the user rejects',
          'shows why a transfer failed: more USDC than alice holds',
          'the emulator’s web UI lists what the wallet was asked beside the test’s relay',
          'the user rejects the transfer',
        ]);
        // The approved transfer cost the relay its fee (two signatures, the relay's and alice's); the rejected one nothing.
        expect(rows.get('connects, and the relay lands a transfer the wallet approved')).toMatchObject({
          file: 'tests/send.spec.mjs',
          transactions: 1,
          feeLamports: 10_000,
          sponsorLamports: 10_000,
        });
        expect(rows.get('shows the dapp’s own error when the user rejects')).toMatchObject({ transactions: 0, sponsorLamports: 0 });
        // Playwright's workers, the emulators in them, the browsers and the dapp's Vite server: all gone with the run.
        const left = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
          .split('\n')
          .filter((line) => line.includes(root));
        expect(left, round).toEqual([]);
        // The dapp's port (vite preview's, playwright.config.mjs) is free again.
        await expect(connects(DAPP_PORT), round).resolves.toBe(false);
      }
    },
    12 * MINUTE,
  );
});
