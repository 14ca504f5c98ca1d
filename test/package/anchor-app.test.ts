/**
 * Issue 45, item 19: an Anchor 0.32 app installs the packed tarball beside `@coral-xyz/anchor`
 * 0.32.1 and its own `@solana/web3.js` (^1.98.4, as Anchor's docs have it), and gets one copy of
 * web3.js: the exact pin 1.98.4 installed a second one under relay-emulator, and `tsc` refused
 * relay-emulator's Keypair where Anchor's Wallet wanted its own. Then the same app runs: Anchor's
 * Program reads an account through the emulator's RPC.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { run, type Ran } from '../support/user-shell.ts';

const APP = fileURLToPath(new URL('./anchor-app/', import.meta.url));
const WORKSPACE = fileURLToPath(new URL('../real-clients/anchor/workspace', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const MINUTE = 60_000;
const expectSuccess = (ran: Ran) => expect(ran, ran.output).toMatchObject({ code: 0 });

describe('an Anchor 0.32 app with relay-emulator installed', () => {
  const root = mkdtempSync(join(tmpdir(), 'relay-emulator-anchor-app-'));

  beforeAll(async () => {
    for (const file of ['app.ts', 'run.mjs']) copyFileSync(join(APP, file), join(root, file));
    const manifest = {
      name: 'anchor-app',
      private: true,
      type: 'module',
      dependencies: { '@coral-xyz/anchor': '0.32.1', '@solana/web3.js': '^1.98.4' },
      devDependencies: { 'relay-emulator': `file:${inject('packedTarball')}`, '@types/node': '20.19.43' },
    };
    writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const tsconfig = {
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      files: ['app.ts'],
    };
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify(tsconfig));
    expectSuccess(await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: root, timeoutMs: 8 * MINUTE }));
  }, 10 * MINUTE);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('installs one copy of @solana/web3.js, shared by the app, Anchor and relay-emulator', async () => {
    const listed = await run('npm', ['ls', '@solana/web3.js', '--all', '--parseable'], { cwd: root });
    expectSuccess(listed);
    const copies = new Set(
      listed.output
        .trim()
        .split('\n')
        .filter((line) => line.includes('@solana/web3.js')),
    );
    expect([...copies]).toEqual([join(root, 'node_modules/@solana/web3.js')]);
    expect(existsSync(join(root, 'node_modules/relay-emulator/node_modules/@solana/web3.js'))).toBe(false);
  });

  it("type-checks relay-emulator's Keypair into Anchor's Wallet, and a Connection into AnchorProvider", async () => {
    const checked = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: root, timeoutMs: 3 * MINUTE });
    expect(checked.output).toBe('');
    expectSuccess(checked);
  });

  it("runs: Anchor's Program reads the workspace's account through the emulator's RPC", async () => {
    const ran = await run(process.execPath, ['run.mjs', WORKSPACE], { cwd: root, timeoutMs: 2 * MINUTE });
    expectSuccess(ran);
    expect(ran.output).toContain('puppet data 7');
  });
});
