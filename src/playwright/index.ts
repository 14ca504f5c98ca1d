/**
 * `relay-emulator/playwright`: Playwright's `test` with an emulator and a test wallet.
 *
 * - `emulator`: one per worker (in the worker's process, on a free loopback port), made with the
 *   `relayEmulator` option (programs, accounts, Anchor workspace, kora.toml: createRelayEmulator's
 *   options), reset before each test.
 * - `wallet`: a TestWallet (relay-emulator/wallet) injected into the test's page before the dapp's
 *   scripts run, holding the `walletKey` option's key (`alice`, `bob`: a fixture wallet; a 64-byte
 *   secret key; default a fresh key the faucet funds with 1 SOL), approving unless the test decides.
 * - The page is told where its relay is before its scripts run: `window.__RELAY_EMULATOR__`
 *   ({@link DappUrls}), which a dapp reads before its build's env (examples/dapp/src/relay.js).
 * - Each test's requests from the page to the emulator carry X-Relay-Emulator-Test, so its sponsored
 *   transactions are charged to it; the figures are attached to the test, and
 *   `relay-emulator/playwright/reporter` writes `sponsor-costs.json` as relay-emulator/vitest does.
 *
 * Playwright is the user's: `@playwright/test` is a peer dependency, and nothing is downloaded.
 */
import { relative } from 'node:path';
import { test as base } from '@playwright/test';
import { Keypair } from '@solana/web3.js';
import { decodeBase58 } from '../base/crypto/base58.ts';
import { createRelayEmulator, type RelayEmulator, type RelayEmulatorOptions } from '../index.ts';
import { costFigures } from '../vitest/test-label.ts';
import { loadFixtures } from '../domain/fixtures/load-fixtures.ts';
import { TestWallet } from '../wallet/test-wallet.ts';
import { SPONSOR_COSTS_ATTACHMENT, type AttachedCosts } from './attachment.ts';
import { dappUrls, dappUrlsScript } from './dapp-urls.ts';

export { expect } from '@playwright/test';
export { TestWallet, WalletError, type WalletDecision, type WalletRequest } from '../wallet/test-wallet.ts';
export type { DappUrls } from './dapp-urls.ts';

/** The wallet's key: a fixture wallet's name, a 64-byte secret key, or `fresh` (a new key, funded with 1 SOL). */
export type WalletKey = string | Uint8Array;

export interface RelayEmulatorWorkerFixtures {
  /** createRelayEmulator's options for the worker's emulator. Default none. */
  relayEmulator: Omit<RelayEmulatorOptions, 'loopback'>;
  emulator: RelayEmulator;
}

export interface RelayEmulatorTestFixtures {
  walletKey: WalletKey;
  /** Phantom's `window.solana` too, for dapps older than the Wallet Standard. Default false. */
  walletLegacy: boolean;
  /** Origins whose pages may use the wallet. Default: the first that connects (with `baseURL`, its origin). */
  walletOrigins: string[] | undefined;
  wallet: TestWallet;
}

const SETTLE_MS = 10_000;
const ONE_SOL = 1_000_000_000n;

export const test = base.extend<RelayEmulatorTestFixtures, RelayEmulatorWorkerFixtures>({
  relayEmulator: [{}, { scope: 'worker', option: true }],
  emulator: [
    async ({ relayEmulator }, use) => {
      const emulator = await createRelayEmulator(relayEmulator);
      try {
        await use(emulator);
      } finally {
        await emulator.close();
      }
    },
    { scope: 'worker' },
  ],
  walletKey: ['fresh', { option: true }],
  walletLegacy: [false, { option: true }],
  walletOrigins: [undefined, { option: true }],
  // Automatic: every test's page has the wallet, and its requests are the test's, whether the test names `wallet` or not.
  wallet: [
    async ({ page, emulator, relayEmulator, walletKey, walletLegacy, walletOrigins, baseURL }, use, testInfo) => {
      await emulator.reset();
      // The emulator is on the loopback: Chromium's Local Network Access asks the user before a page of another
      // address space (a dapp served by page.route, a tunnel) may reach it. The test's user says yes.
      await page
        .context()
        .grantPermissions(['local-network-access'])
        .catch(() => undefined);
      const label = `${relative(testInfo.config.rootDir, testInfo.file)} > ${testInfo.titlePath.slice(1).join(' > ')}`;
      const headers = { 'x-relay-emulator-test': encodeURIComponent(label), 'x-relay-emulator-test-encoding': 'percent' };
      const origin = new URL(emulator.config.rpcUrl).origin;
      // The page's requests to the emulator are the test's: named as relay-emulator/vitest names them.
      await page.route(
        (url) => url.origin === origin,
        (route) => route.continue({ headers: { ...route.request().headers(), ...headers } }),
      );
      const keypair = keyOf(walletKey, relayEmulator.fixtures);
      if (walletKey === 'fresh') await emulator.faucet({ address: keypair.publicKey, lamports: ONE_SOL });
      const origins = walletOrigins ?? (baseURL ? [new URL(baseURL).origin] : undefined);
      let ended = false;
      const wallet = new TestWallet({
        keypair,
        rpcUrl: emulator.config.rpcUrl,
        feePayer: emulator.config.feePayer,
        legacy: walletLegacy,
        headers,
        // The web UI lists them beside the test's relays (GET /__emulator/wallet-requests); one answered
        // after the test ended (a delayed decision) is not the next test's.
        onRequest: (request) => {
          if (!ended) emulator.recordWalletRequest(request, label);
        },
        ...(origins ? { origins } : {}),
      });
      // Where the dapp finds its relay: the worker's emulator, before the page's scripts run (a dapp built
      // with its URLs in env reads these first: examples/dapp/src/relay.js). Only in the page's own frame,
      // of an origin the test allows (without one named, any): never a third party's iframe.
      await page.addInitScript({ content: dappUrlsScript(dappUrls(emulator), origins ?? null) });
      await wallet.install(page);
      await use(wallet);
      ended = true;
      // What the test's sponsored transactions cost, once the queue has landed them.
      if (!emulator.queueState().paused) {
        await Promise.race([emulator.settle().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, SETTLE_MS).unref())]);
      }
      const figures = costFigures(emulator.sponsorCosts().filter((entry) => entry.label === label));
      const attached: AttachedCosts = { test: testInfo.titlePath.slice(1).join(' > '), engine: emulator.config.engine, figures };
      await testInfo.attach(SPONSOR_COSTS_ATTACHMENT, { body: JSON.stringify(attached), contentType: 'application/json' });
    },
    { auto: true },
  ],
});

/** The wallet's key: a fixture wallet by name, a secret key, or a fresh one. */
function keyOf(key: WalletKey, fixtures: RelayEmulatorOptions['fixtures']): Keypair {
  if (key instanceof Uint8Array) return Keypair.fromSecretKey(key);
  if (key === 'fresh') return Keypair.generate();
  const { wallets } = fixtures === undefined || typeof fixtures === 'string' ? (fixtures === undefined ? loadFixtures() : loadFixtures(fixtures)) : fixtures;
  const fixture = wallets.find((wallet) => wallet.name === key);
  if (!fixture?.secretKey) {
    const names = wallets
      .filter((wallet) => wallet.secretKey)
      .map((wallet) => wallet.name)
      .join(', ');
    throw new Error(`relay-emulator/playwright: walletKey "${key}" names no fixture wallet with a secret key (${names}), nor is it "fresh"`);
  }
  return Keypair.fromSecretKey(decodeBase58(fixture.secretKey)!);
}
