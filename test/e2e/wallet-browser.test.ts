/**
 * Issue 54: the test wallet in a real browser (Debian's chromium, driven by playwright-core), on a
 * dapp page that finds wallets as the Wallet Standard says (test/fixtures/dapps/plain-dapp.html, with
 * web3.js's own browser build): connect, a USDC transfer the relay pays for, signed by the wallet
 * (its slot only) and relayed; a rejection with the user's 4001; Phantom's window.solana; another
 * origin refused; a transaction that asks the user to pay the fee, recorded as such; and 100 requests
 * at once, each answered. Nothing is mocked between the page and the emulator.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Keypair, PublicKey } from '@solana/web3.js';
import type { Page } from 'playwright-core';
import { rpcAt } from '../support/json-rpc.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { loadFixtures } from '../../src/domain/fixtures/load-fixtures.ts';
import { decodeBase58 } from '../../src/base/crypto/base58.ts';
import { dappUrls, dappUrlsScript } from '../../src/playwright/dapp-urls.ts';
import { TestWallet } from '../../src/wallet/index.ts';
import { type Browser, launchChromium, pageTrouble } from '../support/browser.ts';

const DAPP = readFileSync(fileURLToPath(new URL('../fixtures/dapps/plain-dapp.html', import.meta.url)), 'utf8');
const WEB3 = readFileSync(createRequire(import.meta.url).resolve('@solana/web3.js/lib/index.iife.min.js')!, 'utf8');
const fixtures = loadFixtures();
const alice = Keypair.fromSecretKey(decodeBase58(fixtures.wallets.find((wallet) => wallet.name === 'alice')!.secretKey!)!);
const bob = fixtures.wallets.find((wallet) => wallet.name === 'bob')!.publicKey;
const USDC = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';

/** Serves the dapp and web3.js on a loopback port of its own (the dapp's origin). */
function serveDapp(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/web3.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return response.end(WEB3);
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(DAPP);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}

/** A third party's page (an ad) on a loopback port of its own: another origin, for the dapp to embed in an iframe. */
function serveThirdParty(): Promise<[Server, string]> {
  return new Promise((resolve) => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<p>ad</p>');
    });
    server.listen(0, '127.0.0.1', () => resolve([server, `http://127.0.0.1:${(server.address() as { port: number }).port}`]));
  });
}

/** The dapp embeds `origin`'s page in an iframe; resolves once it loaded. */
function embed(page: Page, origin: string): Promise<unknown> {
  return page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    document.body.append(frame);
    return new Promise((resolve) => frame.addEventListener('load', resolve));
  }, `${origin}/`);
}

describe('the test wallet in a browser', () => {
  let emulator: RelayEmulator;
  let browser: Browser;
  let dapp: { server: Server; origin: string };
  beforeAll(async () => {
    [emulator, browser, dapp] = await Promise.all([createRelayEmulator(), launchChromium(), serveDapp()]);
    // Bob's USDC account, empty: where the dapp's transfers go.
    await emulator.faucet({ address: bob, mint: USDC, amount: 0 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
    await new Promise((resolve) => dapp?.server.close(resolve));
  });

  const rpc = (method: string, params: unknown[]) => rpcAt(emulator.config.rpcUrl)(method, params);
  const balance = async (owner: string) => {
    const { value } = await rpc('getTokenAccountsByOwner', [owner, { mint: USDC }, { encoding: 'jsonParsed' }]);
    return BigInt(value[0]?.account.data.parsed.info.tokenAmount.amount ?? 0);
  };
  const open = async (wallet: TestWallet, query: Record<string, string> = {}) => {
    const page = await browser.context.newPage();
    const trouble = pageTrouble(page);
    await wallet.install(page);
    const params = new URLSearchParams({ relay: emulator.config.baseUrl, key: emulator.config.apiKey, to: bob, amount: '1500000', ...query });
    await page.goto(`${dapp.origin}/?${params}`);
    return { page, trouble };
  };
  const click = async (page: Page, id: string, until: RegExp) => {
    await page.click(`#${id}`);
    await page.waitForFunction((pattern) => new RegExp(pattern).test(document.getElementById('status')!.textContent ?? ''), until.source, { timeout: 30_000 });
    return page.textContent('#status');
  };

  it('is found as a Wallet Standard wallet, connects, signs its slot of a transfer the relay pays for, and the relay lands it', async () => {
    const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer });
    const { page, trouble } = await open(wallet);
    const before = [await balance(alice.publicKey.toBase58()), await balance(bob)];
    expect(await click(page, 'connect', /connected|failed/)).toBe('connected');
    expect(await page.textContent('#account')).toBe(alice.publicKey.toBase58());
    expect(await click(page, 'send', /landed|failed|refused/)).toBe('landed');
    const receipt = JSON.parse((await page.textContent('#receipt'))!);
    expect(receipt).toMatchObject({ Signature: expect.any(String) });
    await emulator.settle();
    expect([await balance(alice.publicKey.toBase58()), await balance(bob)]).toEqual([before[0]! - 1_500_000n, before[1]! + 1_500_000n]);
    // What the user was asked: a transaction whose fee payer is the relay, alice a signer, the token program its program.
    const asked = wallet.requests.find((request) => request.method === 'signTransaction')!;
    expect(asked).toMatchObject({
      origin: dapp.origin,
      outcome: 'approved',
      transaction: { version: 0, feePayer: emulator.config.feePayer, signers: [emulator.config.feePayer, alice.publicKey.toBase58()], walletPaysFee: false },
    });
    expect(asked.transaction!.programs).toEqual(['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA']);
    expect(trouble).toEqual([]);
    await page.close();
  }, 120_000);

  it('rejects as the user would (4001), and the dapp shows its own error; nothing is relayed', async () => {
    const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer });
    const { page } = await open(wallet);
    await click(page, 'connect', /connected/);
    wallet.decide('reject');
    const before = await balance(bob);
    expect(await click(page, 'send', /landed|failed|refused/)).toBe('send failed: 4001 User rejected the request.');
    expect(wallet.requests.at(-1)).toMatchObject({ method: 'signTransaction', outcome: 'rejected' });
    expect(await balance(bob)).toBe(before);
    await page.close();
  }, 120_000);

  it('serves an older dapp through Phantom’s window.solana (legacy), with its events', async () => {
    const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer, legacy: true });
    const { page } = await open(wallet, { legacy: '1' });
    await page.evaluate(() => {
      (window as unknown as { events: string[] }).events = [];
      (window as unknown as { solana: { on(event: string, listener: () => void): void } }).solana.on('disconnect', () =>
        (window as unknown as { events: string[] }).events.push('disconnect'),
      );
    });
    expect(await click(page, 'connect', /connected|failed/)).toBe('connected');
    expect(await click(page, 'send', /landed|failed|refused/)).toBe('landed');
    expect(wallet.requests.filter((request) => request.legacy).map((request) => request.method)).toEqual(['connect', 'signTransaction']);
    expect(wallet.requests.at(-1)!.transaction).toMatchObject({ version: 'legacy', feePayer: emulator.config.feePayer });
    // The user disconnects from the wallet's side: the page hears it.
    await wallet.disconnect();
    expect(await page.evaluate(() => (window as unknown as { events: string[] }).events)).toEqual(['disconnect']);
    await page.close();
  }, 120_000);

  it('refuses a page of another origin, whatever the user would choose; onRequest hears the refusal, and what it throws never reaches the page', async () => {
    const heard: string[] = [];
    const onRequest = (request: { method: string; outcome: string }) => {
      heard.push(`${request.method} ${request.outcome}`);
      throw new Error('the test’s own hook broke');
    };
    const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, origins: ['http://dapp.example'], onRequest });
    const { page } = await open(wallet);
    expect(await click(page, 'connect', /connected|failed/)).toMatch(/^connect failed: 4100 The requested method and\/or account has not been authorized/);
    expect(wallet.requests[0]).toMatchObject({ method: 'connect', origin: dapp.origin, outcome: 'refused' });
    expect(heard).toEqual(['connect refused']);
    await page.close();
  }, 120_000);

  it('never holds the relay’s fee payer; signs as asked a transaction that makes the user pay, recorded as such; answers 100 requests at once', async () => {
    const relayKey = Keypair.fromSecretKey(decodeBase58(fixtures.relay.feePayer.secretKey)!);
    expect(() => new TestWallet({ keypair: relayKey, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer })).toThrow(/relay's fee payer/);
    const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer });
    const { page } = await open(wallet);
    await click(page, 'connect', /connected/);
    const { blockhash } = (await rpc('getLatestBlockhash', [])).value;
    const answers = await page.evaluate(
      async ({ blockhash: recent, count }) => {
        const web3 = (window as unknown as { solanaWeb3: any }).solanaWeb3;
        const wallets: any[] = [];
        window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register: (found: unknown) => wallets.push(found) } }));
        const wallet = wallets[0];
        const [account] = wallet.accounts;
        const owner = new web3.PublicKey(account.address);
        const build = (lamports: number) =>
          new web3.VersionedTransaction(
            new web3.TransactionMessage({
              payerKey: owner,
              recentBlockhash: recent,
              instructions: [web3.SystemProgram.transfer({ fromPubkey: owner, toPubkey: owner, lamports })],
            }).compileToV0Message(),
          ).serialize();
        const results = await Promise.allSettled(
          Array.from({ length: count }, (_, index) => wallet.features['solana:signTransaction'].signTransaction({ account, transaction: build(index + 1) })),
        );
        return results.map((result) => result.status);
      },
      { blockhash, count: 100 },
    );
    expect(answers).toHaveLength(100);
    expect(answers.every((status) => status === 'fulfilled')).toBe(true);
    const signed = wallet.requests.filter((request) => request.method === 'signTransaction');
    expect(signed).toHaveLength(100);
    expect(signed.every((request) => request.transaction!.walletPaysFee && request.transaction!.feePayer === alice.publicKey.toBase58())).toBe(true);
    expect(new PublicKey(wallet.address).equals(alice.publicKey)).toBe(true);
    await page.close();
  }, 120_000);

  it('tells only the dapp’s own top frame where the relay is (the fixture’s script); answers malformed or oversized requests with an error', async () => {
    const [third, thirdOrigin] = await serveThirdParty();
    try {
      const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer, origins: [dapp.origin] });
      const page = await browser.context.newPage();
      await page.addInitScript({ content: dappUrlsScript(dappUrls(emulator), [dapp.origin]) });
      await wallet.install(page);
      await page.goto(`${dapp.origin}/`);
      const told = () => (globalThis as unknown as { __RELAY_EMULATOR__?: { relayUrl: string } }).__RELAY_EMULATOR__?.relayUrl ?? null;
      expect(await page.evaluate(told)).toBe(emulator.config.baseUrl);
      await embed(page, thirdOrigin);
      expect(
        await page
          .frames()
          .find((each) => each.url().startsWith(thirdOrigin))!
          .evaluate(told),
      ).toBeNull();
      // Malformed requests, straight to the wallet's binding: each answered with an error, none recorded as a method.
      const ask = (payload: string) =>
        page.evaluate(async (body) => {
          const send = (window as unknown as Record<string, (payload: string) => Promise<string>>).__relayEmulatorWallet__!;
          return JSON.parse(await send(body)).error?.code ?? 'answered';
        }, payload);
      expect(await ask('null')).toBe(-32600);
      expect(await ask('{"method":{"toString":1}}')).toBe(-32600);
      expect(await ask('{"method":"connect","params":null}')).toBe('answered');
      const oversized = Buffer.alloc(1233, 1).toString('base64');
      expect(await ask(JSON.stringify({ method: 'signTransaction', params: { transaction: oversized } }))).toBe(-32602);
      expect(wallet.requests.map((request) => `${request.method} ${request.outcome}`)).toEqual(['connect approved', 'signTransaction refused']);
      // A page of another origin as the top frame is not told either.
      await page.goto(`${thirdOrigin}/`);
      expect(await page.evaluate(told)).toBeNull();
      await page.close();
    } finally {
      await new Promise((resolve) => third.close(resolve));
    }
  }, 120_000);

  it('with no origin given, lets no iframe or opaque frame take the wallet, signs nothing before connect, and signs in only for this page', async () => {
    // A third party's page, embedded by the dapp: another origin, in an iframe.
    const [third, thirdOrigin] = await serveThirdParty();
    try {
      const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer, name: 'Pay $& $` $1' });
      const { page } = await open(wallet);
      await embed(page, thirdOrigin);
      const frame = page.frames().find((each) => each.url().startsWith(thirdOrigin))!;
      const connectFrom = (where: typeof frame | typeof page) =>
        where.evaluate(async () => {
          const wallets: any[] = [];
          window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register: (found: unknown) => wallets.push(found) } }));
          const feature = wallets[0].features;
          const name = wallets[0].name as string;
          const connected = await feature['standard:connect'].connect().then(
            () => 'connected',
            (error: { code: number }) => `refused ${error.code}`,
          );
          return { name, connected };
        });
      // The iframe asks first: refused, and it names no origin; the page's own frame then connects.
      expect(await connectFrom(frame)).toEqual({ name: 'Pay $& $` $1', connected: 'refused 4100' });
      // Before connect, nothing is signed.
      const early = await page.evaluate(async () => {
        const wallets: any[] = [];
        window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register: (found: unknown) => wallets.push(found) } }));
        const send = (window as unknown as Record<string, (payload: string) => Promise<string>>).__relayEmulatorWallet__!;
        return JSON.parse(await send(JSON.stringify({ method: 'signMessage', params: { account: 'x', message: btoa('hi') } }))).error.code;
      });
      expect(early).toBe(4100);
      expect(await connectFrom(page)).toEqual({ name: 'Pay $& $` $1', connected: 'connected' });
      const signIn = (input: Record<string, unknown>) =>
        page.evaluate(async (given) => {
          const wallets: any[] = [];
          window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register: (found: unknown) => wallets.push(found) } }));
          return wallets[0].features['solana:signIn'].signIn(given).then(
            ([output]: { signedMessage: Uint8Array }[]) => new TextDecoder().decode(output!.signedMessage),
            (error: { code: number; message: string }) => `refused ${error.code}: ${error.message}`,
          );
        }, input);
      const host = new URL(dapp.origin).host;
      expect(await signIn({ statement: 'Sign in to the dapp', nonce: 'abc12345' })).toBe(
        `${host} wants you to sign in with your Solana account:\n${alice.publicKey.toBase58()}\n\nSign in to the dapp\n\nNonce: abc12345`,
      );
      expect(await signIn({ domain: 'evil.example' })).toMatch(/^refused 4100: signIn's domain evil\.example is not this page's/);
      expect(await signIn({ domain: host, statement: 'x\nURI: https://evil.example' })).toMatch(/^refused -32602: signIn's statement holds a line break/);
      expect(await signIn({ address: bob })).toMatch(/^refused 4100: signIn's address/);
      await page.close();
    } finally {
      await new Promise((resolve) => third.close(resolve));
    }
  }, 120_000);

  it('is found and used by @solana/wallet-adapter’s code unchanged: getWallets, StandardWalletAdapter, a web3.js Transaction the relay pays for', async () => {
    // The dapp's wallet code, bundled for the browser as a dapp's bundler would (esbuild, from the published packages).
    const { build } = await import('esbuild');
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('../fixtures/dapps/wallet-adapter.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
      logLevel: 'error',
    });
    const wallet = new TestWallet({ keypair: alice, rpcUrl: emulator.config.rpcUrl, feePayer: emulator.config.feePayer });
    const { page, trouble } = await open(wallet);
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const { blockhash } = (await rpc('getLatestBlockhash', [])).value;
    const result = await page.evaluate(
      ([feePayer, recent]) => (window as unknown as { signWithAdapter(a: string, b: string): Promise<unknown> }).signWithAdapter(feePayer!, recent!),
      [emulator.config.feePayer, blockhash],
    );
    expect(result).toEqual({
      adapter: 'Relay Emulator',
      readyState: 'Installed',
      owner: alice.publicKey.toBase58(),
      // The relay's slot left for the relay; the user's signed.
      signatures: [
        [emulator.config.feePayer, 'empty'],
        [alice.publicKey.toBase58(), 'signed'],
      ],
    });
    expect(wallet.requests.map((request) => request.method)).toEqual(['connect', 'signTransaction']);
    expect(trouble).toEqual([]);
    await page.close();
  }, 120_000);
});
