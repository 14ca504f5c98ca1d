/**
 * The conformance kit against the emulator, in process: once through `emulator.fetch`, once
 * through MSW with the kit's default (global) fetch. The emulator must conform: no MUST check
 * fails, and every skip says why.
 */
import { readFileSync } from 'node:fs';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable, runConformance, type ConformanceReport } from '../src/conformance/index.ts';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';

const wallets = JSON.parse(readFileSync(new URL('../fixtures/wallets.json', import.meta.url), 'utf8')) as { name: string; secretKey: string }[];
const mints = JSON.parse(readFileSync(new URL('../fixtures/mints.json', import.meta.url), 'utf8')) as { symbol: string; address: string }[];
/** Fixture wallet alice holds fixture USDC: the scenarios' owner and mint. */
const alice = Keypair.fromSecretKey(bs58.decode(wallets.find((w) => w.name === 'alice')!.secretKey));
const usdc = mints.find((m) => m.symbol === 'USDC')!.address;
const apps = JSON.parse(readFileSync(new URL('../fixtures/apps.json', import.meta.url), 'utf8')) as { environment: string; index: number }[];
/** The fixture legacy app. */
const legacyApp = { environment: apps[0]!.environment, index: apps[0]!.index };

let emulator: RelayEmulator;
beforeAll(async () => {
  // No loopback listener: RpcUrl is then <origin>/rpc, on the target's origin, as on a server, and the
  // kit checks the RPC's answers against the contract (it leaves an RpcUrl elsewhere to its owner).
  emulator = await createRelayEmulator({ baseUrl: 'https://relay.example.test/api', loopback: false });
});
afterAll(async () => {
  await emulator?.close();
});

function byId(report: ConformanceReport) {
  return new Map(report.results.map((r) => [r.id, r]));
}

/** Passes only when no check failed at all; prints the table otherwise. */
function expectClean(report: ConformanceReport, verdict: 'conformant' | 'incomplete' = 'conformant') {
  const failed = report.results.filter((r) => r.status === 'fail');
  expect(failed, formatTable(report)).toEqual([]);
  expect(report.summary.mustFailed, formatTable(report)).toBe(0);
  expect(report.summary.verdict, formatTable(report)).toBe(verdict);
  expect(report.summary.ok).toBe(verdict === 'conformant');
  for (const r of report.results.filter((x) => x.status === 'skip')) expect(r.reason, r.id).toMatch(/\w{3,}/);
}

describe('conformance of the emulator, in process', () => {
  it('passes every check of the current interface through emulator.fetch', async () => {
    const report = await runConformance({
      baseUrl: emulator.config.baseUrl,
      apiKey: emulator.config.apiKey,
      fetch: emulator.fetch,
      ownerKeypair: alice,
      mint: usdc,
      timeoutMs: 10_000,
    });
    // Without a legacy app the run checks the current interface (issue 25.17): a service that
    // offers only that one is conformant, and the legacy checks are not applicable, not skipped.
    expectClean(report);
    expect(report.target.interface).toBe('current');
    const legacyIds = report.results.filter((r) => r.id.startsWith('legacy.'));
    expect(legacyIds.length).toBeGreaterThan(5);
    expect(report.summary.notApplicable).toBe(legacyIds.length);
    expect(report.summary.skipped).toBe(0);
    const results = byId(report);
    // The scenarios really ran (nothing of the current interface was skipped)...
    const current = report.results.filter((r) => !r.id.startsWith('legacy.'));
    expect(current.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    for (const id of ['relay.create.lands', 'relay.send.lands', 'relay.sendbatch.lands', 'relay.close.lands']) {
      expect(results.get(id)?.reason, id).toMatch(/^visible after \d+ ms$/);
    }
    // ...every operation of the current interface was validated against the contract...
    expect(report.results.filter((r) => r.id.startsWith('contract.')).map((r) => r.id)).toEqual([
      'contract.getConfig',
      'contract.getBlockhash',
      'contract.getBlockhashByPost',
      'contract.createAccount',
      'contract.closeAccount',
      'contract.getAccountInfo',
      'contract.getHistory',
      'contract.getBalance',
      'contract.sendTransaction',
      'contract.sendBatch',
    ]);
    // ...and legacy checks say why they did not run.
    expect(results.get('legacy.app-config')).toMatchObject({ status: 'not-applicable', reason: expect.stringMatching(/--interface current/) });
    expect(formatTable(report)).toMatch(/N\/A {5}MUST {4}legacy\.app-config/);
  });

  it('checks the legacy interface alone, without an API key, its RPC from the app config (--interface legacy)', async () => {
    const report = await runConformance({ baseUrl: emulator.config.baseUrl, fetch: emulator.fetch, legacy: legacyApp, interface: 'legacy', timeoutMs: 10_000 });
    expectClean(report);
    const ran = report.results.filter((r) => r.status !== 'not-applicable').map((r) => r.id);
    expect(ran).toEqual(expect.arrayContaining(['legacy.app-config', 'legacy.make-transfer', 'contract.legacyMakeTransfer']));
    expect(ran.filter((id) => !id.startsWith('legacy.') && !id.startsWith('contract.'))).toEqual([]);
    expect(report.results.find((r) => r.id === 'relay.create.lands')?.status).toBe('not-applicable');
  });

  it('funds its own owner and mint through /__emulator, and checks the legacy app too: every check passes', async () => {
    const report = await runConformance({
      baseUrl: emulator.config.baseUrl,
      apiKey: emulator.config.apiKey,
      fetch: emulator.fetch,
      legacy: legacyApp,
      timeoutMs: 10_000,
    });
    expectClean(report);
    expect(report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    const ids = report.results.map((r) => r.id);
    expect(ids).toEqual(
      expect.arrayContaining(['legacy.make-transfer', 'contract.legacyMakeTransfer', 'contract.emulatorCreateMint', 'contract.emulatorFaucet']),
    );
  });

  it('passes through MSW with the default fetch, leaving the owner as it found it', async () => {
    const balance = async () => {
      const res = await emulator.fetch(
        new Request(`${emulator.config.baseUrl}/Account/balance`, {
          method: 'POST',
          headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ accountAddress: alice.publicKey.toBase58(), mintAddress: usdc }),
        }),
      );
      return ((await res.json()) as { tokens: { amount: string }[] }).tokens[0]?.amount;
    };
    const before = await balance();
    const server = setupServer(...emulator.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const report = await runConformance({
        baseUrl: emulator.config.baseUrl,
        apiKey: emulator.config.apiKey,
        ownerKeypair: alice,
        mint: usdc,
        timeoutMs: 10_000,
      });
      expectClean(report);
      expect(byId(report).get('relay.close.lands')?.status).toBe('pass');
    } finally {
      server.close();
    }
    await emulator.settle();
    expect(await balance()).toBe(before);
  });

  it('gets blockhashes from the RPC at RpcUrl when the target has no GET /Transaction/blockhash', async () => {
    const report = await runConformance({
      baseUrl: emulator.config.baseUrl,
      apiKey: emulator.config.apiKey,
      fetch: async (request) => {
        // GET /Transaction/blockhash is an emulator choice, not in the service spec: hide it.
        if (new URL(request.url).pathname.endsWith('/Transaction/blockhash')) {
          return Response.json(
            { type: 'urn:relay-emulator:problem:route-not-found', title: 'No route', status: 404, code: 'ROUTE_NOT_FOUND' },
            { status: 404, headers: { 'Content-Type': 'application/problem+json' } },
          );
        }
        return emulator.fetch(request);
      },
      ownerKeypair: alice,
      mint: usdc,
      timeoutMs: 10_000,
      only: ['relay.', 'contract.'],
    });
    expectClean(report);
    // Only forms.blockhash-post posts to the route, and it is not among the checks run here.
    expect(report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.reason}`)).toEqual([
      'contract.getBlockhashByPost: no request reached POST /Transaction/blockhash in this run',
    ]);
    // One try of the route, then every blockhash (one per relayed transaction) from the RPC.
    expect(byId(report).get('contract.getBlockhash')?.reason).toBe('1 response');
    expect(byId(report).get('contract.jsonRpc')?.reason).toBe('4 responses');
  });

  it('skips the scenarios, saying why, when it has no owner and the target no /__emulator routes', async () => {
    const report = await runConformance({
      baseUrl: emulator.config.baseUrl,
      apiKey: emulator.config.apiKey,
      fetch: async (request) => {
        // Hide the test controls, as a production deployment would.
        if (new URL(request.url).pathname.startsWith('/__emulator/')) return new Response('Not Found', { status: 404 });
        return emulator.fetch(request);
      },
      timeoutMs: 10_000,
      only: ['relay.', 'history.entries'],
    });
    expect(report.results.every((r) => r.status === 'skip')).toBe(true);
    expect(byId(report).get('relay.create.receipt')?.reason).toBe(
      'needs a funded owner and a mint, which is unavailable: no mint: pass --mint (options.mint), or run against a target with /__emulator routes ' +
        '(the target has no /__emulator routes (GET /__emulator/clock → 404 "Not Found"))',
    );
  });
});
