// Over 250 lines: every /__emulator control, in process and over HTTP, against one emulator, whose start-up is the cost of a file.
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeState, encodeState } from '../src/domain/state/state-codec.ts';
import { createRelayEmulator, sealSnapshot } from '../src/index.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, ata, BOB, build, createAtaInstructions, transferInstruction, USDC } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

// Every control, in process through MSW (real fetch, real ledger), each response checked against the spec.
describe('test controls (in process)', () => {
  let h: Harness;
  let origin: string;

  beforeAll(async () => {
    h = await startHarness();
    origin = new URL(h.emulator.config.baseUrl).origin;
  });
  afterAll(() => h.close());
  beforeEach(() => h.emulator.reset());

  async function control(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${origin}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const body = (await assertFetchResponseMatchesSpec(method, path.split('?')[0]!, response)) as any;
    return { status: response.status, body, headers: response.headers };
  }
  const relay = (path: string, signedTransaction: string) => h.call('POST', path, { body: { signedTransaction } });
  const usdcOf = async (owner: PublicKey) => {
    const { body } = await h.call('POST', '/Account/balance', { body: { accountAddress: owner.toBase58(), mintAddress: USDC.toBase58() } });
    return body.tokens[0]?.amount as string | undefined;
  };
  /** A fresh wallet's account creation, as a client builds it. */
  const creation = async (owner = newKeypair()) => ({
    owner,
    tx: build({ instructions: createAtaInstructions(owner.publicKey), blockhash: await h.blockhash(), signers: [owner] }),
  });

  describe('faucet and mints', () => {
    it('credits SOL (1 SOL by default), and adds to what is there', async () => {
      const address = newKeypair().publicKey.toBase58();
      const first = await control('POST', '/__emulator/faucet', { body: { address } });
      expect(first.body).toEqual({ address, lamports: '1000000000', tokenAccount: null, tokenAmount: null });
      const second = await control('POST', '/__emulator/faucet', { body: { address, lamports: 5 } });
      expect(second.body.lamports).toBe('1000000005');
      const info = await h.call('POST', '/Account/getaccountinfo', { body: { accountAddress: address } });
      expect(info.body.accountInfo.lamports).toBe(1_000_000_005);
    });

    it('mints tokens of a fixture mint into the owner’s associated token account, creating it', async () => {
      const owner = newKeypair().publicKey;
      const { body } = await control('POST', '/__emulator/faucet', { body: { address: owner.toBase58(), mint: USDC.toBase58(), amount: '2500000' } });
      expect(body).toEqual({ address: owner.toBase58(), lamports: '0', tokenAccount: ata(owner).toBase58(), tokenAmount: '2500000' });
      await control('POST', '/__emulator/faucet', { body: { address: owner.toBase58(), mint: USDC.toBase58(), amount: '1' } });
      expect(await usdcOf(owner)).toBe('2500001');
      // The mint's supply grew: a real MintTo, not an edited balance.
      const mint = await h.emulator.getAccount(USDC);
      expect(Buffer.from(mint!.data).readBigUInt64LE(36)).toBe(1_000_000_000n + 2_500_001n);
    });

    it('creates the owner’s token account of a mint without minting when no amount is given', async () => {
      const owner = newKeypair().publicKey;
      const funded = await control('POST', '/__emulator/faucet', { body: { address: owner.toBase58(), mint: USDC.toBase58() } });
      expect(funded).toMatchObject({ status: 200, body: { tokenAccount: ata(owner).toBase58(), tokenAmount: '0', lamports: '0' } });
    });

    it('refuses an unknown mint, amount without mint, and a bad address', async () => {
      const owner = newKeypair().publicKey.toBase58();
      const unknown = await control('POST', '/__emulator/faucet', { body: { address: owner, mint: newKeypair().publicKey.toBase58(), amount: '1' } });
      expect(unknown).toMatchObject({ status: 404, body: { code: 'MINT_NOT_FOUND' } });
      const noMint = await control('POST', '/__emulator/faucet', { body: { address: owner, amount: '1' } });
      expect(noMint).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
      const badAddress = await control('POST', '/__emulator/faucet', { body: { address: 'z'.repeat(44) } });
      expect(badAddress).toMatchObject({ status: 400, body: { code: 'INVALID_ADDRESS' } });
      const missing = await control('POST', '/__emulator/faucet', { body: {} });
      expect(missing).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    });

    it('creates mints the relay then sponsors, at addresses that repeat after a reset', async () => {
      const { body } = await control('POST', '/__emulator/mints', { body: { decimals: 2, symbol: 'PTS' } });
      expect(body).toEqual({ mint: expect.any(String), decimals: 2, symbol: 'PTS' });
      const mint = new PublicKey(body.mint);
      const owner = newKeypair();
      await control('POST', '/__emulator/faucet', { body: { address: owner.publicKey.toBase58(), mint: mint.toBase58(), amount: '150' } });
      // A relayed transfer of the new mint lands on the ledger.
      const receiver = newKeypair();
      const tx = build({
        instructions: [
          ...createAtaInstructions(receiver.publicKey, mint),
          transferInstruction(owner, receiver.publicKey, 40n, { mint, checked: true, decimals: 2 }),
        ],
        blockhash: await h.blockhash(),
        signers: [owner, receiver],
      });
      expect((await relay('/Transaction/send', tx)).status).toBe(200);
      await h.emulator.settle();
      const { body: balance } = await h.call('POST', '/Account/balance', { body: { accountAddress: receiver.publicKey.toBase58() } });
      expect(balance.tokens).toEqual([
        {
          mint: mint.toBase58(),
          tokenAccount: getAssociatedTokenAddressSync(mint, receiver.publicKey).toBase58(),
          amount: '40',
          decimals: 2,
          uiAmountString: '0.4',
        },
      ]);

      await h.emulator.reset();
      expect(await h.emulator.getAccount(mint)).toBeNull();
      const again = await control('POST', '/__emulator/mints', { body: { decimals: 9 } });
      expect(again.body).toEqual({ mint: mint.toBase58(), decimals: 9, symbol: null });
      const bad = await control('POST', '/__emulator/mints', { body: { decimals: 19 } });
      expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    });
  });

  describe('accounts, clock and blockhash', () => {
    it('reads and writes raw accounts; 0 lamports removes one', async () => {
      const address = newKeypair().publicKey.toBase58();
      expect(await control('GET', `/__emulator/accounts/${address}`)).toMatchObject({ status: 404, body: { code: 'ACCOUNT_NOT_FOUND' } });
      const account = { lamports: 4242, owner: BOB.publicKey.toBase58(), data: Buffer.from('hello').toString('base64'), executable: false };
      expect((await control('PUT', `/__emulator/accounts/${address}`, { body: account })).body).toEqual(account);
      expect((await control('GET', `/__emulator/accounts/${address}`)).body).toEqual(account);
      const removed = await control('PUT', `/__emulator/accounts/${address}`, { body: { ...account, lamports: 0 } });
      expect(removed.body.lamports).toBe(0);
      expect((await control('GET', `/__emulator/accounts/${address}`)).status).toBe(404);
      const badData = await control('PUT', `/__emulator/accounts/${address}`, { body: { ...account, data: 'not base64!' } });
      expect(badData).toMatchObject({ status: 400, body: { code: 'INVALID_BASE64' } });
      // Lamports come out of the faucet key (the ledger's total never changes); it cannot give more than it holds.
      const tooRich = h.emulator.setAccount(address, { lamports: 10n ** 18n, owner: BOB.publicKey.toBase58(), data: new Uint8Array(), executable: false });
      await expect(tooRich).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('reservoir') });
      expect(await h.emulator.getAccount(address)).toBeNull();
    });

    it('warps slots, sets the clock, and refuses to go back', async () => {
      const before = (await control('GET', '/__emulator/clock')).body;
      const warped = (await control('POST', '/__emulator/clock', { body: { warpSlots: 100 } })).body;
      expect(warped.slot).toBe(before.slot + 100);
      expect(warped.blockHeight).toBe(before.blockHeight + 100);
      const timed = (await control('POST', '/__emulator/clock', { body: { slot: warped.slot + 5, unixTimestamp: 2_000_000_000 } })).body;
      expect(timed).toMatchObject({ slot: warped.slot + 5, unixTimestamp: 2_000_000_000 });
      const back = await control('POST', '/__emulator/clock', { body: { slot: 1 } });
      expect(back).toMatchObject({ status: 409, body: { code: 'SLOT_IN_THE_PAST' } });
      const both = await control('POST', '/__emulator/clock', { body: { slot: timed.slot + 1, warpSlots: 1 } });
      expect(both).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', detail: 'must not have both warpSlots and slot' } });
      // The next transaction lands after the set time.
      const { tx, owner } = await creation();
      await relay('/Account/create', tx);
      await h.emulator.settle();
      const history = await h.call('POST', `/Account/gethistory?WalletAddress=${owner.publicKey.toBase58()}`);
      expect(history.body.transactions[0].blockTime).toBeGreaterThanOrEqual(2_000_000_000);
      // Reset brings the clock back to its natural time (slots keep moving forward).
      await h.emulator.reset();
      const natural = h.emulator.clock();
      expect(natural.slot).toBeGreaterThanOrEqual(timed.slot);
      expect(natural.unixTimestamp).toBeLessThan(2_000_000_000);
    });

    it('expires blockhashes: a transaction built on an old one is refused', async () => {
      const { tx } = await creation();
      const expired = await control('POST', '/__emulator/blockhash/expire');
      expect(expired.body).toEqual({ Blockhash: expect.any(String), LastValidBlockHeight: expect.any(Number) });
      expect((await relay('/Account/create', tx)).body.code).toBe('BLOCKHASH_NOT_FOUND');
      expect((await relay('/Account/create', (await creation()).tx)).status).toBe(200);
    });
  });

  describe('queue', () => {
    it('pauses, steps, flushes, resumes and sets latency', async () => {
      expect((await control('POST', '/__emulator/queue/pause')).body).toEqual({ paused: true, pending: 0, latencyMs: 0 });
      const first = await relay('/Account/create', (await creation()).tx);
      const second = await relay('/Account/create', (await creation()).tx);
      const third = await relay('/Account/create', (await creation()).tx);
      expect((await control('GET', '/__emulator/queue')).body).toMatchObject({ paused: true, pending: 3 });
      expect((await control('GET', '/__emulator/journal/transactions?status=queued')).body.transactions).toHaveLength(3);

      expect((await control('POST', '/__emulator/queue/step')).body).toEqual({ processed: [first.body.signature] });
      expect((await control('GET', `/__emulator/journal/transactions?signature=${first.body.signature}`)).body.transactions[0].status).toBe('processed');
      expect((await control('POST', '/__emulator/queue/flush')).body).toEqual({ paused: true, pending: 0, latencyMs: 0 });
      const statuses = (await control('GET', '/__emulator/journal/transactions')).body.transactions.map((entry: any) => [entry.signature, entry.status]);
      expect(statuses).toEqual([
        [first.body.signature, 'processed'],
        [second.body.signature, 'processed'],
        [third.body.signature, 'processed'],
      ]);
      expect((await control('POST', '/__emulator/queue/step')).body).toEqual({ processed: [] });

      expect((await control('PUT', '/__emulator/queue', { body: { latencyMs: 25 } })).body).toEqual({ paused: true, pending: 0, latencyMs: 25 });
      expect((await control('POST', '/__emulator/queue/resume')).body).toEqual({ paused: false, pending: 0, latencyMs: 25 });
      expect((await control('PUT', '/__emulator/queue', { body: { latencyMs: -1 } })).status).toBe(400);
      await h.emulator.reset();
      expect(h.emulator.queueState()).toEqual({ paused: false, pending: 0, latencyMs: 0 });
    });
  });

  describe('faults', () => {
    it('fails the next N relays of an operation with a chosen problem, then lets them through', async () => {
      const armed = await control('POST', '/__emulator/faults', { body: { operation: 'create', kind: 'problem', code: 'INTERNAL_ERROR', count: 2 } });
      expect(armed.body).toEqual({ id: expect.any(String), operation: 'create', kind: 'problem', code: 'INTERNAL_ERROR', count: 2, remaining: 2 });
      // Other operations are not hit.
      const send = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1n)], blockhash: await h.blockhash(), signers: [ALICE] });
      const { tx } = await creation();
      expect((await relay('/Transaction/send', send)).status).not.toBe(500);
      expect(await relay('/Account/create', tx)).toMatchObject({
        status: 500,
        body: { code: 'INTERNAL_ERROR', detail: expect.stringContaining(armed.body.id) },
      });
      expect((await control('GET', '/__emulator/faults')).body).toEqual([{ ...armed.body, remaining: 1 }]);
      expect((await relay('/Account/create', tx)).status).toBe(500);
      expect((await control('GET', '/__emulator/faults')).body).toEqual([]);
      expect((await relay('/Account/create', tx)).status).toBe(200);
    });

    it('answers RATE_LIMITED with Retry-After, for any operation', async () => {
      await control('POST', '/__emulator/faults', { body: { operation: 'any', kind: 'problem', code: 'RATE_LIMITED' } });
      const limited = await relay('/Account/close', 'AAAA');
      expect(limited).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
      expect(limited.headers.get('retry-after')).toBe('1');
    });

    it('accepts a relay and then fails its ledger submission', async () => {
      await control('POST', '/__emulator/faults', { body: { operation: 'send', kind: 'ledger', ledgerError: 'BlockhashNotFound (injected)' } });
      const tx = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1n)], blockhash: await h.blockhash(), signers: [ALICE] });
      // Bob has no USDC account yet, so create it in the same transaction.
      const withAccount = build({
        instructions: [...createAtaInstructions(BOB.publicKey), transferInstruction(ALICE, BOB.publicKey, 7n)],
        blockhash: await h.blockhash(),
        signers: [ALICE, BOB],
      });
      void tx;
      const receipt = await relay('/Transaction/send', withAccount);
      expect(receipt.body.status).toBe('Queued');
      await h.emulator.settle();
      const [entry] = (await control('GET', `/__emulator/journal/transactions?signature=${receipt.body.signature}`)).body.transactions;
      expect(entry).toMatchObject({
        status: 'failed',
        injectedError: 'BlockhashNotFound (injected)',
        err: { InjectedError: 'BlockhashNotFound (injected)' },
        slot: null,
      });
      expect(await usdcOf(BOB.publicKey)).toBeUndefined();
      // The fault is spent: the same kind of transaction now lands.
      const next = build({
        instructions: [...createAtaInstructions(BOB.publicKey), transferInstruction(ALICE, BOB.publicKey, 8n)],
        blockhash: await h.blockhash(),
        signers: [ALICE, BOB],
      });
      await relay('/Transaction/send', next);
      await h.emulator.settle();
      expect(await usdcOf(BOB.publicKey)).toBe('8');
    });

    it('delays a relay: its answer comes after other requests made later', async () => {
      await control('POST', '/__emulator/faults', { body: { operation: 'create', kind: 'delay', delayMs: 1500 } });
      let answered = false;
      const delayed = relay('/Account/create', (await creation()).tx).then((result) => {
        answered = true;
        return result;
      });
      // The fault fired (it is spent) while the relay is still waiting.
      await expect.poll(async () => (await control('GET', '/__emulator/faults')).body).toEqual([]);
      expect(answered).toBe(false);
      expect((await delayed).status).toBe(200);
    });

    it('validates faults and clears them', async () => {
      expect((await control('POST', '/__emulator/faults', { body: { operation: 'create', kind: 'problem' } })).status).toBe(400);
      expect((await control('POST', '/__emulator/faults', { body: { operation: 'create', kind: 'problem', code: 'NOT_A_CODE' } })).status).toBe(400);
      expect((await control('POST', '/__emulator/faults', { body: { operation: 'mint', kind: 'ledger' } })).status).toBe(400);
      await control('POST', '/__emulator/faults', { body: { operation: 'any', kind: 'ledger', count: 3 } });
      expect((await control('GET', '/__emulator/faults')).body).toMatchObject([{ ledgerError: 'Injected ledger failure', remaining: 3 }]);
      expect((await control('DELETE', '/__emulator/faults')).body).toEqual({ ok: true });
      expect((await control('GET', '/__emulator/faults')).body).toEqual([]);
    });
  });

  describe('journals', () => {
    it('journals every request with its response, filterable by method, path and status', async () => {
      const { tx } = await creation();
      await relay('/Account/create', tx);
      await h.call('POST', '/Account/getaccountinfo', { body: { accountAddress: newKeypair().publicKey.toBase58() } });
      await control('GET', '/health');
      const all = (await control('GET', '/__emulator/journal/requests')).body.requests;
      expect(all.map((entry: any) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
        'GET /api/Transaction/blockhash 200',
        'POST /api/Account/create 200',
        'POST /api/Account/getaccountinfo 404',
        'GET /health 200',
      ]);
      const created = all[1];
      expect(created).toMatchObject({ operationId: 'createAccount', requestBody: { signedTransaction: tx }, responseBody: { status: 'Queued' } });
      expect((await control('GET', '/__emulator/journal/requests?status=404')).body.requests.map((entry: any) => entry.operationId)).toEqual([
        'getAccountInfo',
      ]);
      expect((await control('GET', '/__emulator/journal/requests?method=post&path=/api/account/')).body.requests).toHaveLength(2);
      expect((await control('GET', '/__emulator/journal/requests?limit=1')).body.requests.map((entry: any) => entry.path)).toEqual(['/health']);
      expect((await control('GET', '/__emulator/journal/requests?status=abc')).status).toBe(400);
    });

    it('journals every relayed transaction with status, logs, compute units and fee', async () => {
      const { tx } = await creation();
      const receipt = await relay('/Account/create', tx);
      await h.emulator.settle();
      const { transactions } = (await control('GET', '/__emulator/journal/transactions?operation=create&status=processed')).body;
      expect(transactions).toEqual([
        expect.objectContaining({
          signature: receipt.body.signature,
          operation: 'create',
          status: 'processed',
          err: null,
          fee: 5000 * 2,
          slot: expect.any(Number),
          blockTime: expect.any(Number),
        }),
      ]);
      expect(transactions[0].logs.join('\n')).toContain('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL invoke');
      expect(transactions[0].computeUnitsConsumed).toBeGreaterThan(0);
      expect((await control('GET', '/__emulator/journal/transactions?operation=send')).body.transactions).toEqual([]);
    });
  });

  describe('reset', () => {
    it('brings back the fixtures: accounts, balances, history, records, queue, faults, journal', async () => {
      const { owner, tx } = await creation();
      await relay('/Account/create', tx);
      const transfer = build({
        instructions: [...createAtaInstructions(BOB.publicKey), transferInstruction(ALICE, BOB.publicKey, 1_000n)],
        blockhash: await h.blockhash(),
        signers: [ALICE, BOB],
      });
      await relay('/Transaction/send', transfer);
      await h.emulator.settle();
      await h.emulator.faucet({ address: owner.publicKey, lamports: 10n });
      await h.emulator.createMint({ decimals: 0 });
      await h.emulator.setAccount(newKeypair().publicKey, { lamports: 1n, owner: BOB.publicKey.toBase58(), data: new Uint8Array(3), executable: false });
      h.emulator.injectFault({ operation: 'any', kind: 'ledger' });
      h.emulator.pauseQueue();
      await relay('/Account/create', (await creation()).tx);
      expect(h.emulator.queueState().pending).toBe(1);

      const response = await control('POST', '/__emulator/reset');
      expect(response.body).toEqual({ ok: true });
      expect(await usdcOf(ALICE.publicKey)).toBe('1000000000');
      expect(await usdcOf(BOB.publicKey)).toBeUndefined();
      expect((await h.call('POST', '/Account/getaccountinfo', { body: { accountAddress: ata(owner.publicKey).toBase58() } })).status).toBe(404);
      expect((await h.call('POST', '/Account/getaccountinfo', { body: { accountAddress: owner.publicKey.toBase58() } })).status).toBe(404);
      expect((await h.call('POST', `/Account/gethistory?WalletAddress=${ALICE.publicKey.toBase58()}`)).body.transactions).toEqual([]);
      expect(h.emulator.transactionJournal()).toEqual([]);
      expect(h.emulator.faults()).toEqual([]);
      expect(h.emulator.queueState()).toEqual({ paused: false, pending: 0, latencyMs: 0 });
      // The journal starts again with the reset itself.
      expect(h.emulator.requestJournal().map((entry) => entry.path)).toEqual([
        '/__emulator/reset',
        '/api/Account/balance',
        '/api/Account/balance',
        '/api/Account/getaccountinfo',
        '/api/Account/getaccountinfo',
        '/api/Account/gethistory',
      ]);

      // A removed account can be created again (a non-idempotent create fails if it still exists).
      const again = build({ instructions: createAtaInstructions(owner.publicKey), blockhash: await h.blockhash(), signers: [owner] });
      expect((await relay('/Account/create', again)).status).toBe(200);
      await h.emulator.settle();
      expect(h.emulator.transactionJournal()).toMatchObject([{ status: 'processed', err: null }]);
    });
  });

  describe('state snapshot', () => {
    it('restores balances, history and records into a new emulator, and re-queues what was still queued', async () => {
      const { owner, tx } = await creation();
      const created = await relay('/Account/create', tx);
      await h.emulator.settle();
      await h.emulator.faucet({ address: owner.publicKey, mint: USDC, amount: 77n });
      await h.emulator.warp({ slots: 1000 });
      h.emulator.pauseQueue();
      const pending = await relay(
        '/Transaction/send',
        build({ instructions: [transferInstruction(owner, ALICE.publicKey, 7n)], blockhash: await h.blockhash(), signers: [owner] }),
      );
      const snapshot = decodeState(encodeState(await h.emulator.snapshot())) as Awaited<ReturnType<typeof h.emulator.snapshot>>;
      expect(snapshot.queuePaused).toBe(true);

      const restored = await createRelayEmulator({ baseUrl: 'https://relay-2.example.test/api' });
      try {
        await restored.restore(snapshot);
        restored.resumeQueue();
        await restored.settle();
        expect(restored.clock().slot).toBeGreaterThanOrEqual(h.emulator.clock().slot);
        expect(restored.transactionJournal().map((entry) => [entry.signature, entry.status])).toEqual([
          [created.body.signature, 'processed'],
          [pending.body.signature, 'processed'],
        ]);
        const history = restored.services.history.query(owner.publicKey.toBase58(), { limit: 10 }).map((entry) => entry.signature);
        expect(history).toEqual([pending.body.signature, created.body.signature]);
        const account = await restored.getAccount(ata(owner.publicKey));
        expect(Buffer.from(account!.data).readBigUInt64LE(64)).toBe(70n);
        // And reset still means the fixtures, not the restored state.
        await restored.reset();
        expect(await restored.getAccount(ata(owner.publicKey))).toBeNull();
      } finally {
        await restored.close();
      }
    });

    it('refuses a snapshot of an emulator with another fee payer (other fixtures), and changes nothing', async () => {
      const before = await h.emulator.getAccount(ata(ALICE.publicKey));
      const snapshot = await h.emulator.snapshot();
      const other = newKeypair().publicKey.toBase58();
      await expect(h.emulator.restore(sealSnapshot({ ...snapshot, feePayer: other }))).rejects.toMatchObject({
        code: 'SNAPSHOT_REFUSED',
        message: expect.stringContaining(other),
      });
      expect(await h.emulator.getAccount(ata(ALICE.publicKey))).toEqual(before);
      await h.emulator.restore(snapshot);
    });

    it('refuses a snapshot whose checksum does not hold (changed after it was taken, not sealed again), and changes nothing', async () => {
      const snapshot = await h.emulator.snapshot();
      expect(snapshot).toMatchObject({ version: 2, checksum: expect.stringMatching(/^crc32:[0-9a-f]{8}$/) });
      // The checksum is the last field: the state file writes it after the rest.
      expect(Object.keys(snapshot).at(-1)).toBe('checksum');
      const before = await h.emulator.getAccount(ata(ALICE.publicKey));
      await expect(h.emulator.restore({ ...snapshot, queuePaused: !snapshot.queuePaused })).rejects.toMatchObject({
        code: 'SNAPSHOT_REFUSED',
        message: expect.stringMatching(/checksum is crc32:[0-9a-f]{8}, but its content sums to crc32:[0-9a-f]{8}.*Nothing was changed.*sealSnapshot/),
      });
      const { checksum: _checksum, ...unsealed } = snapshot;
      await expect(h.emulator.restore(unsealed)).rejects.toMatchObject({ code: 'SNAPSHOT_REFUSED', message: expect.stringContaining('has no checksum') });
      expect(await h.emulator.getAccount(ata(ALICE.publicKey))).toEqual(before);
      // Through JSON (the state codec) it holds; sealed again after a change on purpose, it is taken.
      await h.emulator.restore(decodeState(encodeState(snapshot)) as typeof snapshot);
      await h.emulator.restore(sealSnapshot({ ...snapshot, queuePaused: snapshot.queuePaused }));
    });
  });

  describe('admin guard, meta routes and CORS', () => {
    it('requires X-Admin-Token once the guard asks for one', async () => {
      h.emulator.admin.requireToken('let-me-in');
      try {
        expect(await control('POST', '/__emulator/reset')).toMatchObject({ status: 401, body: { code: 'ADMIN_TOKEN_REQUIRED' } });
        expect(await control('GET', '/__emulator/clock', { headers: { 'X-Admin-Token': 'nope' } })).toMatchObject({
          status: 403,
          body: { code: 'ADMIN_FORBIDDEN' },
        });
        expect((await control('GET', '/__emulator/clock', { headers: { 'X-Admin-Token': 'let-me-in' } })).status).toBe(200);
        expect((await control('GET', '/health')).status).toBe(200);
      } finally {
        h.emulator.admin.requireToken(null);
      }
    });

    it('serves /health, /openapi.yaml and /docs with its local Redoc bundle', async () => {
      expect((await control('GET', '/health')).body).toEqual({ status: 'ok', slot: expect.any(Number), version: '0.1.0', engine: h.emulator.config.engine });
      const yaml = await control('GET', '/openapi.yaml');
      expect(yaml.headers.get('content-type')).toMatch(/^text\/yaml/);
      expect(yaml.body).toContain('operationId: emulatorReset');
      const docs = await control('GET', '/docs');
      expect(docs.body).toContain('<redoc spec-url="openapi.yaml">');
      expect(docs.body).toContain('<script src="docs/redoc.standalone.js">');
      const script = await h.emulator.fetch(new Request(`${origin}/docs/redoc.standalone.js`));
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await script.text()).length).toBeGreaterThan(500_000);
    });

    it('answers CORS preflights and lets browsers read responses and Retry-After', async () => {
      const preflight = await h.emulator.fetch(
        new Request(`${h.emulator.config.baseUrl}/Account/create`, {
          method: 'OPTIONS',
          headers: {
            Origin: 'http://app.test',
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'content-type, x-api-key, x-trace-id',
          },
        }),
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type, X-API-Key, Authorization, X-Admin-Token, solana-client, x-trace-id');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      const response = await h.call('GET', '/Transaction/config', { headers: { Origin: 'http://app.test' } });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toContain('Retry-After');
    });
  });
});
