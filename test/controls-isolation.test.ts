import { Keypair, type PublicKey } from '@solana/web3.js';
import { createHash } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { ALICE, build, createAtaInstructions, transferInstruction, USDC } from './support/transactions.ts';

// The isolation story of docs/testing-with-vitest.md, as a test: one emulator for the whole file,
// reset() before each test, and what each costs (printed, never asserted: the machine decides).
const BASE_URL = 'https://relay.isolation.test/api';
const wallet = Keypair.fromSeed(createHash('sha256').update('isolation-story-wallet').digest());

let emulator: RelayEmulator;
let createMs = 0;
const resetMs: number[] = [];
const server = setupServer();

beforeAll(async () => {
  const started = performance.now();
  emulator = await createRelayEmulator({ baseUrl: BASE_URL });
  createMs = performance.now() - started;
  server.use(...emulator.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
beforeEach(async () => {
  const started = performance.now();
  await emulator.reset();
  resetMs.push(performance.now() - started);
});
afterAll(async () => {
  server.close();
  await emulator?.close();
});

/** What app code does: plain fetch to the relay's production-looking URL. */
async function api(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { 'X-API-Key': emulator.config.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json() as Promise<any>;
}
const usdc = async (owner: PublicKey) =>
  (await api('/Account/balance', { accountAddress: owner.toBase58(), mintAddress: USDC.toBase58() })).tokens[0]?.amount as string | undefined;
/** A busy test's worth of work: a mint, a faucet, two relays. */
async function busyTest(): Promise<string> {
  const { mint } = await emulator.createMint({ decimals: 2 });
  await emulator.faucet({ address: wallet.publicKey, lamports: 5_000_000n, mint, amount: 100n });
  const { Blockhash } = await api('/Transaction/blockhash');
  await api('/Account/create', {
    signedTransaction: build({ instructions: createAtaInstructions(wallet.publicKey), blockhash: Blockhash, signers: [wallet] }),
  });
  await api('/Transaction/send', {
    signedTransaction: build({ instructions: [transferInstruction(ALICE, wallet.publicKey, 42n)], blockhash: Blockhash, signers: [ALICE] }),
  });
  await emulator.settle();
  return mint;
}

describe('one emulator per test file, reset() between tests', () => {
  let firstMint = '';

  it('a test changes the ledger freely', async () => {
    firstMint = await busyTest();
    expect(await usdc(wallet.publicKey)).toBe('42');
    expect(emulator.transactionJournal()).toHaveLength(2);
  });

  it('the next test starts from the fixtures, whatever ran before', async () => {
    expect(await usdc(wallet.publicKey)).toBeUndefined();
    expect(await usdc(ALICE.publicKey)).toBe('1000000000');
    expect(await emulator.getAccount(wallet.publicKey)).toBeNull();
    expect(await emulator.getAccount(firstMint)).toBeNull();
    expect((await api(`/Account/gethistory?WalletAddress=${ALICE.publicKey.toBase58()}`, undefined, 'POST')).transactions).toEqual([]);
    expect(emulator.transactionJournal()).toEqual([]);
    expect(emulator.requestJournal().map((entry) => entry.path)).toEqual(['/api/Account/balance', '/api/Account/balance', '/api/Account/gethistory']);
  });

  it('and makes the same mints and accounts, so snapshots and logs are stable', async () => {
    expect(await busyTest()).toBe(firstMint);
    expect(await usdc(wallet.publicKey)).toBe('42');
  });

  it('costs: reset() after a busy test, against a new emulator per test', async () => {
    const fresh: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const started = performance.now();
      const other = await createRelayEmulator({ baseUrl: 'https://relay.other.test/api' });
      fresh.push(performance.now() - started);
      await other.close();
    }
    const busy: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      await busyTest();
      const started = performance.now();
      await emulator.reset();
      busy.push(performance.now() - started);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.info(
      [
        'relay-emulator isolation costs (this machine, this run):',
        `  createRelayEmulator() for the file: ${createMs.toFixed(0)} ms`,
        `  createRelayEmulator() again (warm): median ${median(fresh).toFixed(0)} ms of ${fresh.map((ms) => ms.toFixed(0)).join(', ')}`,
        `  reset() after a busy test:          median ${median(busy).toFixed(1)} ms of ${busy.map((ms) => ms.toFixed(1)).join(', ')}`,
        `  reset() in beforeEach:              ${resetMs.map((ms) => ms.toFixed(1)).join(', ')} ms`,
      ].join('\n'),
    );
    // The point of reset() is equivalence with a new emulator; that is asserted, the timings are not.
    expect(await usdc(wallet.publicKey)).toBeUndefined();
    expect(emulator.queueState()).toEqual({ paused: false, pending: 0, latencyMs: 0 });
  });
});
