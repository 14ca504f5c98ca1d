// Over 250 lines: every legacy relay path shares one emulator and one webhook receiver, whose start-up is the cost of a file.
import { type PublicKey, SystemProgram } from '@solana/web3.js';
import { http, HttpResponse, passthrough } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAppMemo } from '../src/interfaces/legacy/app-memo.ts';
import { BLOCKHASH_NOT_FOUND_MESSAGE } from '../src/interfaces/legacy/legacy-errors.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { fixturesWithApps, legacyCreate, legacyTransfer, testApp } from './support/legacy-transactions.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/legacy-webhooks.ts';
import { ALICE, ata, build, createAtaInstructions, FEE_PAYER, KIN, transferInstruction, USDC } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

const REFUSING_HOOK = 'https://hooks.example.test/verify';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('legacy relay: make-transfer and account/create', () => {
  let h: Harness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ '/event-refused': 500 });
    const hooks = (verify: string, event: string) => ({ webhooks: { verify: `${receiver.origin}${verify}`, event: `${receiver.origin}${event}` } });
    h = await startHarness({
      fixtures: fixturesWithApps([
        testApp('hooks', 2, hooks('/verify', '/event')),
        testApp('refusing', 3, { webhooks: { verify: REFUSING_HOOK } }),
        testApp('slow', 4, { commitmentTimeoutMs: 50 }),
        testApp('guarded', 5, { ipsBlocked: ['10.0.0.9'], uasAllowed: ['legacy-sdk/1.0'] }),
        testApp('events', 6, hooks('/verify', '/event-refused')),
      ]),
    });
    h.server.use(
      http.all(`${receiver.origin}/*`, () => passthrough()),
      http.post(REFUSING_HOOK, () => HttpResponse.json({ message: 'not today' }, { status: 403 })),
    );
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  const legacy = () => h.emulator.services.legacy;
  const recent = async () =>
    (await h.call('GET', '/transaction/latest-blockhash/devnet/1', { anonymous: true })).body as { blockhash: string; lastValidBlockHeight: number };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => h.call('POST', path, { anonymous: true, body, headers });
  const relayBody = async (tx: (blockhash: string) => string, extra: Record<string, unknown> = {}) => {
    const { blockhash, lastValidBlockHeight } = await recent();
    return { commitment: 'Confirmed', environment: 'devnet', index: 1, mint: KIN.toBase58(), lastValidBlockHeight, tx: tx(blockhash), ...extra };
  };
  const tokenBalance = async (owner: PublicKey, mint = KIN) => {
    const { body } = await h.call('GET', `/account/balance/devnet/1/${owner.toBase58()}`, { anonymous: true });
    return body.tokens.find((token: { mint: string }) => token.mint === mint.toBase58())?.balance ?? null;
  };

  it('relays a transfer built as the legacy SDK builds it and answers the Confirmed record with every field', async () => {
    const recipient = newKeypair();
    const body = await relayBody(
      (blockhash) => legacyTransfer({ blockhash, memoIndex: 1, transfers: [{ from: ALICE, to: recipient.publicKey, amount: 50_000n, create: recipient }] }),
      { referenceType: 'payment', referenceId: '42' },
    );
    const { status, body: record } = await post('/transaction/make-transfer', body, { 'user-agent': 'legacy-tests', 'legacy-user-agent': 'legacy-sdk/1.0' });
    expect(status).toBe(201);
    expect(record).toMatchObject({
      status: 'Confirmed',
      errors: [],
      amount: '0.5',
      decimals: 5,
      source: ALICE.publicKey.toBase58(),
      destination: ata(recipient.publicKey, KIN).toBase58(),
      feePayer: FEE_PAYER.toBase58(),
      mint: KIN.toBase58(),
      reference: 'payment|42',
      ip: '127.0.0.1',
      ua: 'legacy-sdk/1.0',
      tx: body.tx,
      ledgerFinalized: null,
      webhookVerifyStart: null,
      webhookEventStart: null,
    });
    expect(record.id).toMatch(/^ltx\d{8}$/);
    // Built from where this emulator's web UI is served (in process, its loopback listener), not a fixed port.
    expect(record.explorerUrl).toBe(`${h.emulator.loopbackOrigin}/tx/${record.signature}`);
    expect(h.emulator.config.uiUrl).toBe(`${h.emulator.loopbackOrigin}/`);
    for (const field of ['createdAt', 'updatedAt', 'ledgerStart', 'ledgerCommitted']) expect(record[field], field).toMatch(ISO);
    for (const field of ['processingDuration', 'ledgerCommittedDuration']) expect(record[field], field).toBeGreaterThanOrEqual(0);
    expect(Date.parse(record.ledgerCommitted)).toBeGreaterThanOrEqual(Date.parse(record.ledgerStart));
    // ledgerTransaction is the RPC getTransaction JSON of what landed, memo included.
    const ledgerTx = record.ledgerTransaction;
    expect(ledgerTx.transaction.signatures[0]).toBe(record.signature);
    expect(ledgerTx.meta.err).toBeNull();
    expect(ledgerTx.meta.logMessages.length).toBeGreaterThan(0);
    expect(ledgerTx.slot).toBeGreaterThan(0);
    expect(await tokenBalance(recipient.publicKey)).toBe('0.5');

    // Finalized follows in the background; the listing shows it.
    await legacy().settle();
    const listed = await h.call('GET', `/transaction/legacy-transaction/devnet/1?signature=${record.signature}`, { anonymous: true });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    const finalized = listed.body[0];
    expect(finalized.status).toBe('Finalized');
    expect(finalized.ledgerFinalized).toMatch(ISO);
    expect(finalized.ledgerFinalizedDuration).toBeGreaterThanOrEqual(record.ledgerCommittedDuration);
    expect(finalized.totalDuration).toBe(Date.parse(finalized.ledgerFinalized) - Date.parse(finalized.createdAt));
    const byReference = await h.call('GET', '/transaction/legacy-transaction/devnet/1?reference=payment%7C42', { anonymous: true });
    expect(byReference.body.map((r: { id: string }) => r.id)).toEqual([record.id]);
    // Kinetic SDK rc.15+ sends both names, the other one empty; rc.14 sent the older pair.
    for (const query of [
      `?reference=&signature=${record.signature}`,
      '?reference=payment%7C42&signature=',
      '?referenceId=42&referenceType=payment&signature=',
    ]) {
      const listing = await h.call('GET', `/transaction/legacy-transaction/devnet/1${query}`, { anonymous: true });
      expect(
        listing.body.map((r: { id: string }) => r.id),
        query,
      ).toEqual([record.id]);
    }
    expect((await h.call('GET', '/transaction/legacy-transaction/devnet/1?referenceId=43&referenceType=payment&signature=', { anonymous: true })).status).toBe(
      404,
    );

    // The app-index memo landed with it.
    const history = await h.call('GET', `/account/history/devnet/1/${recipient.publicKey.toBase58()}/${KIN.toBase58()}`, { anonymous: true });
    expect(history.body[0].history[0]).toMatchObject({ signature: record.signature, memo: expect.stringContaining(encodeAppMemo({ index: 1 })) });
  });

  it('relays a batch of transfers to several destinations', async () => {
    const [first, second] = [newKeypair(), newKeypair()];
    const body = await relayBody((blockhash) =>
      legacyTransfer({
        blockhash,
        memoIndex: 1,
        transfers: [
          { from: ALICE, to: first.publicKey, amount: 100_000n, create: first },
          { from: ALICE, to: second.publicKey, amount: 250_000n, create: second },
        ],
      }),
    );
    const { status, body: record } = await post('/transaction/make-transfer', body);
    expect(status).toBe(201);
    expect(record).toMatchObject({ status: 'Confirmed', amount: '1', destination: ata(first.publicKey, KIN).toBase58(), errors: [] });
    expect(await tokenBalance(first.publicKey)).toBe('1');
    expect(await tokenBalance(second.publicKey)).toBe('2.5');
  });

  it('relays an account creation; with commitment Finalized the answer is the Finalized record', async () => {
    const owner = newKeypair();
    const body = await relayBody((blockhash) => legacyCreate({ blockhash, owner, mint: USDC }), {
      mint: USDC.toBase58(),
      commitment: 'Finalized',
      reference: 'signup-7',
    });
    const { status, body: record } = await post('/account/create', body);
    expect(status).toBe(201);
    expect(record).toMatchObject({
      status: 'Finalized',
      source: owner.publicKey.toBase58(),
      amount: null,
      destination: null,
      decimals: 6,
      mint: USDC.toBase58(),
      reference: 'signup-7',
      errors: [],
    });
    expect(record.ledgerFinalized).toMatch(ISO);
    expect(record.totalDuration).toBeGreaterThanOrEqual(0);
    expect(await tokenBalance(owner.publicKey, USDC)).toBe('0');
  });

  it('leaves POST /Account/create without an environment to the current interface', async () => {
    const owner = newKeypair();
    const tx = build({ instructions: createAtaInstructions(owner.publicKey), blockhash: (await recent()).blockhash, signers: [owner] });
    const { status, body } = await h.call('POST', '/Account/create', { body: { signedTransaction: tx } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'Queued', message: 'Account creation transaction queued successfully.' });
    await h.emulator.settle();
  });

  it('answers the same signed transaction again with the record of the first call', async () => {
    const owner = newKeypair();
    const body = await relayBody((blockhash) => legacyCreate({ blockhash, owner }));
    const first = await post('/account/create', body);
    const again = await post('/account/create', body);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.signature).toBe(first.body.signature);
  });

  describe('Failed records (answered 201, as the legacy service did)', () => {
    /**
     * Posts a relay body and checks the answer is the BadNonce Failed record Kinetic gave when the RPC
     * refused the blockhash: nothing submitted, nothing paid.
     */
    const expectBlockhashNotFound = async (path: string, body: Record<string, unknown>) => {
      const submitted = h.emulator.services.submissions.all().length;
      const lamports = (await h.emulator.services.ledger.getAccount(FEE_PAYER))!.lamports;
      const { status, body: record } = await post(path, body);
      expect(status).toBe(201);
      expect(record).toMatchObject({ status: 'Failed', signature: null, ledgerStart: null, ledgerTransaction: null, explorerUrl: null, tx: body.tx });
      expect(record.errors).toEqual([
        { id: expect.stringMatching(/^lerr\d{8}$/), type: 'BadNonce', message: BLOCKHASH_NOT_FOUND_MESSAGE, logs: [], instruction: null },
      ]);
      expect(h.emulator.services.submissions.all().length).toBe(submitted);
      expect((await h.emulator.services.ledger.getAccount(FEE_PAYER))!.lamports).toBe(lamports);
      return record;
    };

    it('BadNonce: a blockhash the ledger never issued, on make-transfer and account/create', async () => {
      const unknown = newKeypair().publicKey.toBase58();
      await expectBlockhashNotFound(
        '/transaction/make-transfer',
        await relayBody(() => legacyTransfer({ blockhash: unknown, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 1n }] })),
      );
      await expectBlockhashNotFound('/account/create', await relayBody(() => legacyCreate({ blockhash: unknown, owner: newKeypair(), memoIndex: 1 })));
    });

    it('BadNonce: an expired blockhash, answered exactly like an unknown one', async () => {
      const transfer = await relayBody((blockhash) => legacyTransfer({ blockhash, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 1n }] }));
      const create = await relayBody((blockhash) => legacyCreate({ blockhash, owner: newKeypair(), memoIndex: 1 }));
      await h.emulator.expireBlockhash();
      await expectBlockhashNotFound('/transaction/make-transfer', transfer);
      await expectBlockhashNotFound('/account/create', create);
    });

    it('BadNonce: the same transaction again once its blockhash expired (a replay), the first record untouched', async () => {
      const body = await relayBody((blockhash) => legacyTransfer({ blockhash, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 1n }] }));
      const first = await post('/transaction/make-transfer', body);
      expect(first.body.status).toBe('Confirmed');
      await h.emulator.expireBlockhash();
      const replay = await expectBlockhashNotFound('/transaction/make-transfer', body);
      expect(replay.id).not.toBe(first.body.id);
      expect(legacy().records.get(first.body.id)).toMatchObject({ status: expect.stringMatching(/^(Confirmed|Finalized)$/), errors: [] });
    });

    it('a durable-nonce transaction keeps its own refusal (422), not BadNonce', async () => {
      const nonce = newKeypair().publicKey;
      const advance = SystemProgram.nonceAdvance({ noncePubkey: nonce, authorizedPubkey: ALICE.publicKey });
      const body = await relayBody(() =>
        build({
          instructions: [advance, transferInstruction(ALICE, ALICE.publicKey, 1n, { checked: true, mint: KIN, decimals: 5 })],
          blockhash: newKeypair().publicKey.toBase58(),
          signers: [ALICE],
        }),
      );
      const { status, body: error } = await post('/transaction/make-transfer', body);
      expect(status).toBe(422);
      expect(error.message).toMatch(/Durable-nonce/);
    });

    it('BadNonce: a lastValidBlockHeight that has passed', async () => {
      const body = await relayBody((blockhash) => legacyTransfer({ blockhash, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 1n }] }), {
        lastValidBlockHeight: 1,
      });
      const { body: record } = await post('/transaction/make-transfer', body);
      expect(record.status).toBe('Failed');
      expect(record.errors[0]).toMatchObject({ type: 'BadNonce', message: expect.stringContaining('lastValidBlockHeight 1') });
    });

    it('InvalidAccount: a transfer to a token account that does not exist', async () => {
      const nobody = newKeypair();
      const body = await relayBody((blockhash) => legacyTransfer({ blockhash, memoIndex: 1, transfers: [{ from: ALICE, to: nobody.publicKey, amount: 1n }] }));
      const { status, body: record } = await post('/transaction/make-transfer', body);
      expect(status).toBe(201);
      expect(record.status).toBe('Failed');
      expect(record.errors).toHaveLength(1);
      expect(record.errors[0]).toMatchObject({
        type: 'InvalidAccount',
        instruction: 1,
        message: 'Error processing Instruction 1: invalid account data for instruction.',
      });
      expect(record.errors[0].logs.length).toBeGreaterThan(0);
      expect(record.ledgerTransaction.meta.err).toEqual({ InstructionError: [1, 'InvalidAccountData'] });
      expect(record.signature).toEqual(expect.any(String));
    });

    it('Unknown: any other ledger error, such as insufficient funds', async () => {
      const body = await relayBody((blockhash) => legacyTransfer({ blockhash, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 10n ** 15n }] }));
      const { body: record } = await post('/transaction/make-transfer', body);
      expect(record.status).toBe('Failed');
      expect(record.errors[0]).toMatchObject({ type: 'Unknown', instruction: 0, message: 'Error processing Instruction 0: Insufficient funds.' });
      expect(record.errors[0].logs.join('\n')).toMatch(/insufficient funds/i);
    });

    it('Timeout: the commitment is not reached within the app bound (paused queue)', async () => {
      const { queue } = h.emulator.services;
      queue.pause();
      try {
        const body = await relayBody((blockhash) => legacyTransfer({ blockhash, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 1n }] }), {
          environment: 'slow',
          index: 4,
        });
        const { status, body: record } = await post('/transaction/make-transfer', body);
        expect(status).toBe(201);
        expect(record).toMatchObject({ status: 'Failed', ledgerCommitted: null, ledgerTransaction: null });
        expect(record.ledgerStart).toMatch(ISO);
        expect(record.signature).toEqual(expect.any(String));
        expect(record.errors[0]).toMatchObject({ type: 'Timeout', message: 'Transaction timed out: Confirmed not reached within 50 ms.', instruction: null });
        expect(queue.state().pending).toBe(1);
      } finally {
        queue.resume();
        await h.emulator.settle();
      }
    });

    it('WebhookFailed: the verify webhook refuses (an MSW handler), and nothing is submitted', async () => {
      const submitted = h.emulator.services.submissions.all().length;
      const body = await relayBody((blockhash) => legacyTransfer({ blockhash, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 1n }] }), {
        environment: 'refusing',
        index: 3,
      });
      const { status, body: record } = await post('/transaction/make-transfer', body);
      expect(status).toBe(201);
      expect(record).toMatchObject({ status: 'Failed', signature: null, ledgerStart: null });
      expect(record.errors).toEqual([expect.objectContaining({ type: 'WebhookFailed', message: 'not today', instruction: null })]);
      expect(record.errors[0].logs[0]).toBe('Error: Request failed with status code 403');
      expect(record.webhookVerifyStart).toMatch(ISO);
      expect(record.webhookVerifyEnd).toMatch(ISO);
      expect(record.webhookVerifyDuration).toBeGreaterThanOrEqual(0);
      expect(h.emulator.services.submissions.all().length).toBe(submitted);
    });
  });

  it('posts the verify webhook before submission and the event webhook after finalization, to a real server', async () => {
    const recipient = newKeypair();
    const body = await relayBody(
      (blockhash) => legacyTransfer({ blockhash, memoIndex: 2, transfers: [{ from: ALICE, to: recipient.publicKey, amount: 7n, create: recipient }] }),
      { environment: 'hooks', index: 2, reference: 'hooked' },
    );
    const { body: record } = await post('/transaction/make-transfer', body, { 'legacy-user-agent': 'legacy-sdk/1.0' });
    expect(record.status).toBe('Confirmed');
    const verify = await receiver.next('/verify', (hook) => hook.body.id === record.id);
    expect(verify.headers).toMatchObject({
      'content-type': 'application/json',
      'legacy-environment': 'hooks',
      'legacy-index': '2',
      'legacy-webhook-type': 'Verify',
      'legacy-tx-id': record.id,
      'legacy-user-agent': 'legacy-sdk/1.0',
    });
    expect(verify.body).toMatchObject({ id: record.id, status: 'Processing', signature: null, reference: 'hooked', amount: '0.00007' });
    expect(record.webhookVerifyDuration).toBeGreaterThanOrEqual(0);

    const event = await receiver.next('/event', (hook) => hook.body.id === record.id);
    expect(event.headers['legacy-webhook-type']).toBe('Event');
    expect(event.body).toMatchObject({ id: record.id, status: 'Finalized', signature: record.signature });
    await legacy().settle();
    const [stored] = (await h.call('GET', '/transaction/legacy-transaction/hooks/2?reference=hooked', { anonymous: true })).body;
    expect(stored.status).toBe('Finalized');
    expect(stored.webhookEventStart).toMatch(ISO);
    expect(stored.webhookEventEnd).toMatch(ISO);
    expect(stored.webhookEventDuration).toBeGreaterThanOrEqual(0);
  });

  it('fails a finalized record whose event webhook refuses, as the legacy service did', async () => {
    const body = await relayBody((blockhash) => legacyTransfer({ blockhash, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 3n }] }), {
      environment: 'events',
      index: 6,
    });
    const { body: record } = await post('/transaction/make-transfer', body);
    expect(record.status).toBe('Confirmed');
    await receiver.next('/event-refused', (hook) => hook.body.id === record.id);
    await legacy().settle();
    const [stored] = (await h.call('GET', `/transaction/legacy-transaction/events/6?signature=${record.signature}`, { anonymous: true })).body;
    expect(stored.status).toBe('Failed');
    expect(stored.ledgerFinalized).toMatch(ISO);
    expect(stored.errors).toEqual([expect.objectContaining({ type: 'WebhookFailed', message: 'receiver refused with 500' })]);
    expect(stored.webhookEventDuration).toBeGreaterThanOrEqual(0);
  });

  it('keeps its records as a stateful part: snapshot, reset and restore', async () => {
    await legacy().settle();
    const part = h.emulator.services.state.parts().find((candidate) => candidate.name === 'legacy')!;
    const listing = () => h.call('GET', '/transaction/legacy-transaction/devnet/1?reference=payment%7C42', { anonymous: true });
    const before = (await listing()).body;
    const snapshot = JSON.parse(JSON.stringify(await part.snapshot()));
    await part.reset();
    expect((await listing()).status).toBe(404);
    await part.restore(snapshot);
    expect((await listing()).body).toEqual(before);
  });

  describe('refusals in the legacy error body', () => {
    it('404 for an unknown app', async () => {
      const body = await relayBody((blockhash) => legacyCreate({ blockhash, owner: newKeypair() }), { environment: 'nowhere', index: 9 });
      const { status, body: error } = await post('/transaction/make-transfer', body);
      expect(status).toBe(404);
      expect(error).toEqual({ statusCode: 404, message: 'app-9-nowhere: App not found.', error: 'Not Found' });
    });

    it('400 naming the mint when the mint is not the app’s', async () => {
      const stranger = newKeypair().publicKey.toBase58();
      const body = await relayBody((blockhash) => legacyCreate({ blockhash, owner: newKeypair() }), { mint: stranger });
      const { status, body: error } = await post('/account/create', body);
      expect(status).toBe(400);
      expect(error).toEqual({ statusCode: 400, message: `app-1-devnet: Can't find mint ${stranger}`, error: 'Bad Request' });
    });

    it('400 for a reference of another type than string or null (null is what Kinetic SDKs send for none)', async () => {
      for (const [field, value] of [
        ['reference', 7],
        ['referenceId', false],
        ['referenceType', {}],
      ] as const) {
        const body = await relayBody((blockhash) => legacyCreate({ blockhash, owner: newKeypair() }), { [field]: value });
        const { status, body: error } = await post('/account/create', body);
        expect(status, field).toBe(400);
        expect(error).toEqual({ statusCode: 400, message: `${field} must be a string or null`, error: 'Bad Request' });
      }
    });

    it('400 for a body without the required fields', async () => {
      const { status, body: error } = await post('/transaction/make-transfer', { environment: 'devnet', index: 1, mint: KIN.toBase58() });
      expect(status).toBe(400);
      expect(error.statusCode).toBe(400);
      expect(error.message).toMatch(/tx/);
    });

    it('422 for a transaction the fee-payer policy refuses', async () => {
      const body = await relayBody((blockhash) =>
        build({ instructions: createAtaInstructions(newKeypair().publicKey), blockhash, signers: [], feePayer: ALICE.publicKey }),
      );
      const { status, body: error } = await post('/account/create', body);
      expect(status).toBe(422);
      expect(error).toMatchObject({ statusCode: 422, error: 'Unprocessable Entity', message: expect.stringContaining('fee payer') });
    });

    it('403 for a blocked IP or a user agent outside the allow list', async () => {
      const body = await relayBody((blockhash) => legacyTransfer({ blockhash, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: 1n }] }), {
        environment: 'guarded',
        index: 5,
      });
      const blocked = await post('/transaction/make-transfer', body, { 'x-forwarded-for': '10.0.0.9, 192.168.1.1', 'legacy-user-agent': 'legacy-sdk/1.0' });
      expect(blocked.status).toBe(403);
      expect(blocked.body).toEqual({ statusCode: 403, message: 'app-5-guarded: Request not allowed from IP 10.0.0.9.', error: 'Forbidden' });
      const wrongAgent = await post('/transaction/make-transfer', body, { 'user-agent': 'curl/8' });
      expect(wrongAgent.status).toBe(403);
      expect(wrongAgent.body.message).toBe('app-5-guarded: Request not allowed from user agent "curl/8".');
      const allowed = await post('/transaction/make-transfer', body, { 'x-real-ip': '10.0.0.10', 'user-agent': 'legacy-sdk/1.0' });
      expect(allowed.status).toBe(201);
      expect(allowed.body).toMatchObject({ status: 'Confirmed', ip: '10.0.0.10', ua: 'legacy-sdk/1.0' });
    });

    it('400 for a listing with neither reference nor signature, 404 when nothing matches', async () => {
      for (const query of ['', '?reference=&signature=', '?referenceId=&referenceType=&signature=']) {
        const neither = await h.call('GET', `/transaction/legacy-transaction/devnet/1${query}`, { anonymous: true });
        expect(neither.status, query).toBe(400);
        expect(neither.body).toEqual({ statusCode: 400, message: 'app-1-devnet: Please provide either reference or signature', error: 'Bad Request' });
      }
      const none = await h.call('GET', '/transaction/legacy-transaction/devnet/1?reference=nothing-here', { anonymous: true });
      expect(none.status).toBe(404);
      expect(none.body.message).toBe('app-1-devnet: Transaction not found');
    });
  });
});
