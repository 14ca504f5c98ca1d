/**
 * Issue 54, the second dapp style: kit's React hooks (@solana/react's useWalletAccountTransactionSigner
 * over @wallet-standard/react-core's useWallets and useConnect), installed as a dapp installs them
 * (test/real-clients/kit-react: its own kit, 7.0.0, which @solana/react 7 takes as a peer), bundled by
 * esbuild, rendered by React 19 in Debian's chromium against the test wallet. Nothing of either side
 * is changed: the hooks find the wallet, connect, and sign; the relay's slot is left for the relay.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { decodeBase58 } from '../../src/base/crypto/base58.ts';
import { loadFixtures } from '../../src/domain/fixtures/load-fixtures.ts';
import { TestWallet } from '../../src/wallet/index.ts';
import { type Browser, launchChromium, pageTrouble } from '../support/browser.ts';
import { installJudge } from '../support/judge-install.ts';
import { rpcAt } from '../support/json-rpc.ts';

const JUDGE = fileURLToPath(new URL('../real-clients/kit-react/', import.meta.url));
const alice = Keypair.fromSecretKey(decodeBase58(loadFixtures().wallets.find((wallet) => wallet.name === 'alice')!.secretKey!)!);

describe('kit’s React hooks with the test wallet', () => {
  let emulator: RelayEmulator;
  let browser: Browser;
  let bundle: string;
  beforeAll(async () => {
    const installed = await installJudge(JUDGE, { files: ['dapp.ts'] });
    const { build } = await import('esbuild');
    const built = await build({
      entryPoints: [join(installed, 'dapp.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'error',
    });
    bundle = built.outputFiles[0]!.text;
    [emulator, browser] = await Promise.all([createRelayEmulator(), launchChromium()]);
  }, 5 * 60_000);
  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
  });

  it('useWallets finds it, useConnect connects, useWalletAccountTransactionSigner signs the user’s slot of a transaction the relay pays for', async () => {
    const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer });
    const page = await browser.context.newPage();
    const trouble = pageTrouble(page);
    await wallet.install(page);
    // A page of one origin (the emulator's /health: the dapp's script is added to it); the browser's favicon ask answered.
    await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
    await page.goto(`${new URL(emulator.config.rpcUrl).origin}/health`);
    await page.addScriptTag({ content: bundle });
    const { value } = await rpcAt(emulator.config.rpcUrl)<{ value: { blockhash: string; lastValidBlockHeight: number } }>('getLatestBlockhash');
    await page.evaluate((lifetime) => (window as unknown as { runKitDapp(lifetime: unknown): void }).runKitDapp(lifetime), {
      relay: emulator.config.feePayer,
      blockhash: value.blockhash,
      lastValidBlockHeight: value.lastValidBlockHeight,
    });
    await page.waitForFunction(() => (window as unknown as { kitResult?: unknown }).kitResult !== undefined, undefined, { timeout: 30_000 });
    const result = await page.evaluate(() => (window as unknown as { kitResult: unknown }).kitResult);
    expect(result).toEqual({
      account: alice.publicKey.toBase58(),
      signatures: [
        [emulator.config.feePayer, 'empty'],
        [alice.publicKey.toBase58(), 'signed'],
      ],
    });
    expect(wallet.requests.map((request) => [request.method, request.transaction?.feePayer ?? null])).toEqual([
      ['connect', null],
      ['signTransaction', emulator.config.feePayer],
    ]);
    expect(trouble).toEqual([]);
    await page.close();
  }, 120_000);
});
