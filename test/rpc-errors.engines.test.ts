// Over 250 lines: every JSON-RPC error code against one emulator, whose start-up is the cost of a file.
/**
 * The JSON-RPC endpoint at the HTTP level: authentication, batches, notifications, and every error
 * code the validator would answer, through MSW with real fetch. Every answer is checked against
 * the spec (`POST /rpc`).
 */
import { type Keypair, LAMPORTS_PER_SOL, type PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator } from '../src/index.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, USDC, ata } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

interface RpcCall {
  token?: string | null;
  method?: string;
  raw?: string;
  contentType?: string;
}

function rpcClient(h: Harness, token: () => string) {
  return async function rpc(body: unknown, call: RpcCall = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const bearer = call.token === undefined ? token() : call.token;
    const method = call.method ?? 'POST';
    const response = await fetch(h.emulator.config.rpcUrl, {
      method,
      headers: {
        ...(method === 'POST' ? { 'Content-Type': call.contentType ?? 'application/json' } : {}),
        ...(bearer === null ? {} : { Authorization: `Bearer ${bearer}` }),
      },
      body: method === 'POST' ? (call.raw ?? JSON.stringify(body)) : undefined,
    });
    const headers = response.headers;
    const parsed = await assertFetchResponseMatchesSpec('post', '/rpc', response);
    return { status: response.status, body: parsed, headers };
  };
}

const request = (method: string, params?: unknown[], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

/** A funded keypair (a faucet airdrop, processed). */
async function funded(h: Harness, rpc: ReturnType<typeof rpcClient>): Promise<Keypair> {
  const payer = newKeypair();
  const { body } = await rpc(request('requestAirdrop', [payer.publicKey.toBase58(), LAMPORTS_PER_SOL]));
  expect(typeof body.result).toBe('string');
  await h.emulator.settle();
  return payer;
}

function transfer(payer: Keypair, blockhash: string, lamports: number, to: PublicKey = newKeypair().publicKey): Transaction {
  const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight: 0 });
  tx.add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports }));
  tx.sign(payer);
  return tx;
}

const base64 = (tx: Transaction | VersionedTransaction) => Buffer.from(tx.serialize()).toString('base64');

describe('JSON-RPC endpoint: auth, envelope and errors', () => {
  let clock = new Date('2026-03-01T00:00:00Z');
  let h: Harness;
  let token: string;
  let rpc: ReturnType<typeof rpcClient>;
  let blockhash: string;

  beforeAll(async () => {
    // `always`: every request needs the Token, so that each refusal shows in process (the default, `remote`: test/rpc-auth-modes.test.ts).
    h = await startHarness({ now: () => clock, tokenTtlSeconds: 600, rpcAuth: 'always' });
    token = (await h.call('GET', '/Transaction/config')).body.Token;
    rpc = rpcClient(h, () => token);
    blockhash = (await rpc(request('getLatestBlockhash'))).body.result.value.blockhash;
  });
  afterAll(() => h.close());

  describe('authentication', () => {
    it('answers 401 problem+json without a bearer Token (TOKEN_MISSING, saying so), or with garbage (TOKEN_INVALID)', async () => {
      for (const [bearer, code] of [
        [null, 'TOKEN_MISSING'],
        ['not.a.jwt', 'TOKEN_INVALID'],
      ] as const) {
        const response = await rpc(request('getSlot'), { token: bearer });
        expect(response.status).toBe(401);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(response.body).toMatchObject({ code, status: 401 });
      }
      expect((await rpc(request('getSlot'), { token: null })).body.title).toMatch(/^No bearer token was sent/);
      const apiKeyOnly = await fetch(h.emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': h.emulator.config.apiKey },
        body: JSON.stringify(request('getSlot')),
      });
      expect(apiKeyOnly.status).toBe(401);
    });

    it('answers 401 TOKEN_EXPIRED once the Token has expired', async () => {
      clock = new Date(clock.getTime() + 601_000);
      try {
        const response = await rpc(request('getSlot'));
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('TOKEN_EXPIRED');
      } finally {
        clock = new Date('2026-03-01T00:00:00Z');
      }
      expect((await rpc(request('getSlot'))).status).toBe(200);
    });

    it('needs no Token when rpcAuth is false', async () => {
      // Straight through the core (a second MSW server would share, and on close tear down, this one's interceptors).
      const open = await createRelayEmulator({ rpcAuth: false });
      try {
        const response = await open.fetch(
          new Request(open.config.rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request('getHealth')) }),
        );
        expect(await assertFetchResponseMatchesSpec('post', '/rpc', response)).toEqual({ jsonrpc: '2.0', result: 'ok', id: 1 });
      } finally {
        await open.close();
      }
    });
  });

  describe('envelope', () => {
    it('answers 405 with Allow: POST to other methods', async () => {
      const response = await rpc(undefined, { method: 'GET' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(response.body.code).toBe('METHOD_NOT_ALLOWED');
    });

    it('answers -32700 to unparsable JSON and -32600 to a malformed request, with HTTP 200 and id null', async () => {
      const parse = await rpc(undefined, { raw: '{"jsonrpc":"2.0",' });
      expect(parse.status).toBe(200);
      expect(parse.body).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
      for (const bad of [
        { jsonrpc: '1.0', id: 1, method: 'getSlot' },
        { jsonrpc: '2.0', id: 1 },
        { jsonrpc: '2.0', id: {}, method: 'getSlot' },
        'getSlot',
        [],
      ]) {
        const invalid = await rpc(bad);
        expect(invalid.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null });
      }
    });

    it('answers -32601 to an unknown method, echoing the id', async () => {
      const { body } = await rpc(request('getEverything', [], 'abc'));
      expect(body).toEqual({ jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 'abc' });
    });

    it('answers a batch in order, errors included, and nothing to notifications', async () => {
      const { body } = await rpc([
        request('getHealth', undefined, 1),
        request('nope', undefined, 2),
        { jsonrpc: '2.0', method: 'getSlot' },
        request('getBalance', ['bad'], 3),
      ]);
      expect(body).toHaveLength(3);
      expect(body[0]).toEqual({ jsonrpc: '2.0', result: 'ok', id: 1 });
      expect(body[1].error.code).toBe(-32601);
      expect(body[2]).toMatchObject({ id: 3, error: { code: -32602, message: 'Invalid param: WrongSize' } });
      const notification = await rpc({ jsonrpc: '2.0', method: 'getSlot' });
      expect(notification.status).toBe(204);
      expect(notification.body).toBe('');
    });

    it('wraps results in {context: {apiVersion, slot}, value} exactly where the validator does', async () => {
      const slot = Number(h.emulator.services.ledger.clock().slot);
      const { body } = await rpc([
        request('getBalance', [ALICE.publicKey.toBase58()], 1),
        request('getSlot', [], 2),
        request('getMinimumBalanceForRentExemption', [165], 3),
        request('getTokenAccountBalance', [ata(ALICE.publicKey).toBase58()], 4),
        request('getVersion', [], 5),
      ]);
      expect(body[0].result).toEqual({ context: { apiVersion: '4.1.0', slot }, value: 0 });
      expect(body[1].result).toBe(slot);
      expect(body[2].result).toBe(2_039_280);
      expect(body[3].result.value).toEqual({ amount: '1000000000', decimals: 6, uiAmount: 1000, uiAmountString: '1000' });
      expect(body[4].result).toEqual({ 'feature-set': expect.any(Number), 'solana-core': '4.1.0' });
    });
  });

  describe('-32602 invalid params', () => {
    it('refuses bad addresses, shapes, limits and encodings in the validator wording', async () => {
      const cases: [unknown, string | RegExp][] = [
        [request('getBalance', ['0OIl']), 'Invalid param: Invalid'],
        [request('getBalance', [bs58.encode(new Uint8Array(31))]), 'Invalid param: WrongSize'],
        [request('getBalance', []), /^Invalid params: invalid length 0/],
        [request('getAccountInfo', [ALICE.publicKey.toBase58(), { encoding: 'hex' }]), /^Invalid params: unknown variant `hex`/],
        [request('getAccountInfo', [ALICE.publicKey.toBase58(), { commitment: 'recent' }]), /^Invalid params: unknown variant `recent`/],
        [request('getSignatureStatuses', [Array.from({ length: 257 }, () => bs58.encode(new Uint8Array(64)))]), 'Too many inputs provided; max 256'],
        [request('getSignaturesForAddress', [ALICE.publicKey.toBase58(), { limit: 1001 }]), 'Invalid limit; max 1000'],
        [request('getTransaction', [bs58.encode(new Uint8Array(64)), { commitment: 'processed' }]), 'Method does not support commitment below `confirmed`'],
        [request('getTokenAccountBalance', [ALICE.publicKey.toBase58()]), 'Invalid param: could not find account'],
        [request('getTokenAccountBalance', [h.emulator.config.feePayer]), 'Invalid param: not a Token account'],
        [request('getTokenSupply', [ata(ALICE.publicKey).toBase58()]), 'Invalid param: not a Token mint'],
        [
          request('getTokenAccountsByOwner', [ALICE.publicKey.toBase58(), { programId: SystemProgram.programId.toBase58() }]),
          'Invalid param: unrecognized Token program id',
        ],
        [request('getTokenAccountsByOwner', [ALICE.publicKey.toBase58(), {}]), /RpcTokenAccountsFilter/],
        [request('sendTransaction', ['AAAA', { encoding: 'base64' }]), /^failed to deserialize solana_transaction::versioned::VersionedTransaction/],
        [request('sendTransaction', ['!!!', { encoding: 'base64' }]), 'invalid base64 encoding: InvalidByte(0, 33)'],
        // The base64 crate's errors, as the validator passes them on (kit's getFeeForMessage test sends unpadded text).
        [request('getFeeForMessage', ['AQ']), 'invalid base64 encoding: InvalidPadding'],
        [request('getFeeForMessage', ['AQJ=']), 'invalid base64 encoding: InvalidLastSymbol(2, 74)'],
        [request('getFeeForMessage', ['AQIDA']), 'invalid base64 encoding: InvalidLength(5)'],
        [request('getFeeForMessage', ['AA==']), /^failed to deserialize solana_message::versions::VersionedMessage: /],
        // Signature::from_str's errors: not base58, or not 64 bytes.
        [request('getSignatureStatuses', [['invalid_signature']]), 'Invalid param: Invalid'],
        [request('getSignatureStatuses', [[bs58.encode(new Uint8Array(63).fill(1))]]), 'Invalid param: WrongSize'],
        [request('getTransaction', ['1'.repeat(89)]), 'Invalid param: WrongSize'],
        [request('getSignaturesForAddress', [ALICE.publicKey.toBase58(), { before: bs58.encode(new Uint8Array(65).fill(1)) }]), 'Invalid param: Invalid'],
        // A bare CommitmentConfig: a map must name its commitment.
        ...['getTokenAccountBalance', 'getTokenSupply', 'getTokenLargestAccounts'].map(
          (method) => [request(method, [newKeypair().publicKey.toBase58(), {}]), 'Invalid params: missing field `commitment`.'] as [unknown, string],
        ),
        [request('getInflationGovernor', [{}]), 'Invalid params: missing field `commitment`.'],
        [request('getMinimumBalanceForRentExemption', [0, { minContextSlot: 1 }]), 'Invalid params: missing field `commitment`.'],
        [
          request('simulateTransaction', ['AAAA', { sigVerify: true, replaceRecentBlockhash: true, encoding: 'base64' }]),
          'sigVerify may not be used with replaceRecentBlockhash',
        ],
      ];
      for (const [call, message] of cases) {
        const { status, body } = await rpc(call);
        expect(status).toBe(200);
        expect(body.error.code, JSON.stringify(call).slice(0, 120)).toBe(-32602);
        if (typeof message === 'string') expect(body.error.message).toBe(message);
        else expect(body.error.message).toMatch(message);
      }
    });

    it('refuses base58 account data over 128 bytes (-32600), as the validator does', async () => {
      const { body } = await rpc(request('getAccountInfo', [ata(ALICE.publicKey).toBase58()]));
      expect(body.error).toEqual({ code: -32600, message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.' });
      const sliced = await rpc(request('getAccountInfo', [ata(ALICE.publicKey).toBase58(), { encoding: 'base58', dataSlice: { offset: 0, length: 32 } }]));
      expect(sliced.body.result.value.data).toEqual([USDC.toBase58(), 'base58']);
    });
  });

  describe('-32016, -32004 and -32015', () => {
    it('answers -32016 with the context slot when minContextSlot is ahead', async () => {
      const slot = Number(h.emulator.services.ledger.clock().slot);
      const { body } = await rpc(request('getBalance', [ALICE.publicKey.toBase58(), { minContextSlot: slot + 5 }]));
      expect(body.error).toEqual({ code: -32016, message: 'Minimum context slot has not been reached', data: { contextSlot: slot } });
      expect((await rpc(request('getBalance', [ALICE.publicKey.toBase58(), { minContextSlot: slot }]))).body.result.context.slot).toBe(slot);
    });

    it('answers getBlockTime for past slots and -32004 for slots not produced yet', async () => {
      const slot = Number(h.emulator.services.ledger.clock().slot);
      expect((await rpc(request('getBlockTime', [slot]))).body.result).toBe(h.emulator.services.ledger.blockTime(BigInt(slot)));
      expect((await rpc(request('getBlockTime', [slot + 10]))).body.error).toEqual({ code: -32004, message: `Block not available for slot ${slot + 10}` });
    });

    it('reads a u64 past 2^53 exactly, as serde_json does, and names it as sent', async () => {
      const raw = (body: string) => rpc(undefined, { raw: body });
      const max = '9223372036854775807';
      expect((await raw(`{"jsonrpc":"2.0","id":1,"method":"getBlockTime","params":[${max}]}`)).body.error).toEqual({
        code: -32004,
        message: `Block not available for slot ${max}`,
      });
      expect((await raw(`{"jsonrpc":"2.0","id":1,"method":"getBlock","params":[18446744073709551615]}`)).body.error.message).toBe(
        'Block not available for slot 18446744073709551615',
      );
      // Past u64, the number is a float to serde_json.
      expect((await raw(`{"jsonrpc":"2.0","id":1,"method":"getBlockTime","params":[18446744073709551616]}`)).body.error).toEqual({
        code: -32602,
        message: 'Invalid params: invalid type: floating point `18446744073709552000.0`, expected u64.',
      });
      // Digits inside a string are left as text.
      const text = (await raw(`{"jsonrpc":"2.0","id":"12345678901234567890","method":"getSlot"}`)).body;
      expect(text.id).toBe('12345678901234567890');
    });

    it('answers -32015 for a v0 transaction unless maxSupportedTransactionVersion allows it', async () => {
      const payer = await funded(h, rpc);
      const latest = (await rpc(request('getLatestBlockhash'))).body.result.value.blockhash;
      const message = new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: latest,
        instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: newKeypair().publicKey, lamports: 1_000_000 })],
      }).compileToV0Message();
      const v0 = new VersionedTransaction(message);
      v0.sign([payer]);
      const sent = await rpc(request('sendTransaction', [base64(v0), { encoding: 'base64' }]));
      await h.emulator.settle();
      const signature = sent.body.result;
      const refused = await rpc(request('getTransaction', [signature, { commitment: 'confirmed' }]));
      expect(refused.body.error.code).toBe(-32015);
      expect(refused.body.error.message).toBe(
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: ' +
          '"maxSupportedTransactionVersion": 0',
      );
      const found = await rpc(request('getTransaction', [signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'base64' }]));
      expect(found.body.result).toMatchObject({ version: 0, transaction: [base64(v0), 'base64'], meta: { err: null } });
    });
  });

  describe('sendTransaction and simulateTransaction', () => {
    it('answers -32002 with the simulation logs when preflight fails, and submits nothing', async () => {
      const payer = await funded(h, rpc);
      const latest = (await rpc(request('getLatestBlockhash'))).body.result.value.blockhash;
      const tx = transfer(payer, latest, 5 * LAMPORTS_PER_SOL);
      const { body } = await rpc(request('sendTransaction', [base64(tx), { encoding: 'base64' }]));
      expect(body.error.code).toBe(-32002);
      expect(body.error.message).toBe('Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1');
      expect(body.error.data).toMatchObject({ err: { InstructionError: [0, { Custom: 1 }] }, accounts: null, returnData: null });
      expect(body.error.data.logs.some((line: string) => line.includes('Transfer: insufficient lamports'))).toBe(true);
      expect(body.error.data.unitsConsumed).toBeGreaterThan(0);
      // Agave builds the data with json! (a serde_json Value): its keys sorted, at every level.
      expect(Object.keys(body.error.data)).toEqual(Object.keys(body.error.data).sort());
      expect(Object.keys(body.error.data)[0]).toBe('accounts');
      expect(h.emulator.services.submissions.get(bs58.encode(tx.signature!))).toBeUndefined();
    });

    it('answers a transaction stopped before it ran (its fee payer missing) with no fee, balances or loads, as Agave does', async () => {
      const latest = (await rpc(request('getLatestBlockhash'))).body.result.value.blockhash;
      const { body } = await rpc(request('sendTransaction', [base64(transfer(newKeypair(), latest, 1000)), { encoding: 'base64' }]));
      expect(body.error.data).toEqual({
        accounts: null,
        err: 'AccountNotFound',
        fee: null,
        innerInstructions: null,
        loadedAccountsDataSize: 0,
        loadedAddresses: null,
        logs: [],
        postBalances: null,
        postTokenBalances: null,
        preBalances: null,
        preTokenBalances: null,
        replacementBlockhash: null,
        returnData: null,
        unitsConsumed: 0,
      });
      expect(Object.keys(body.error.data)).toEqual(Object.keys(body.error.data).sort());
    });

    it('answers -32002 "Blockhash not found" for an unknown blockhash, unless skipPreflight, which drops it', async () => {
      const payer = await funded(h, rpc);
      const tx = transfer(payer, bs58.encode(newKeypair().publicKey.toBytes()), 1000);
      const { body } = await rpc(request('sendTransaction', [base64(tx), { encoding: 'base64' }]));
      expect(body.error).toEqual({
        code: -32002,
        message: 'Transaction simulation failed: Blockhash not found',
        data: {
          err: 'BlockhashNotFound',
          logs: [],
          accounts: null,
          unitsConsumed: 0,
          loadedAccountsDataSize: 0,
          returnData: null,
          innerInstructions: null,
          replacementBlockhash: null,
          fee: null,
          preBalances: null,
          postBalances: null,
          preTokenBalances: null,
          postTokenBalances: null,
          loadedAddresses: null,
        },
      });
      const skipped = await rpc(request('sendTransaction', [base64(tx), { encoding: 'base64', skipPreflight: true }]));
      expect(skipped.body.result).toBe(bs58.encode(tx.signature!));
      await h.emulator.settle();
      expect((await rpc(request('getSignatureStatuses', [[skipped.body.result]]))).body.result.value).toEqual([null]);
    });

    it('answers a failed signature as Agave 3.1 on does: SignatureFailure in the simulation, -32002 on send, the fee payer’s included', async () => {
      const payer = await funded(h, rpc);
      const latest = (await rpc(request('getLatestBlockhash'))).body.result.value.blockhash;
      const tx = transfer(payer, latest, 1000);
      const tampered = Buffer.from(tx.serialize());
      tampered[11] = tampered[11]! ^ 0xff;
      const unsigned = Buffer.from(tx.serialize());
      unsigned.fill(0, 1, 65);
      for (const bytes of [tampered, unsigned]) {
        const { body } = await rpc(request('sendTransaction', [bs58.encode(bytes)]));
        expect(body.error).toMatchObject({
          code: -32002,
          message: 'Transaction simulation failed: Transaction did not pass signature verification',
          data: { err: 'SignatureFailure', logs: [], unitsConsumed: 0 },
        });
        const simulated = await rpc(request('simulateTransaction', [bytes.toString('base64'), { encoding: 'base64', sigVerify: true }]));
        expect(simulated.body.result.value).toMatchObject({ err: 'SignatureFailure', logs: [], unitsConsumed: 0 });
      }
      // skipPreflight sends it anyway; the network drops it, so it never lands.
      const skipped = await rpc(request('sendTransaction', [tampered.toString('base64'), { encoding: 'base64', skipPreflight: true }]));
      expect(typeof skipped.body.result).toBe('string');
      await h.emulator.settle();
      expect(h.emulator.services.submissions.get(skipped.body.result)).toBeUndefined();
      expect((await rpc(request('getBalance', [payer.publicKey.toBase58()]))).body.result.value).toBe(LAMPORTS_PER_SOL);
    });

    it('sends directly (base58 by default), lands on the ledger, and answers a resend like the validator', async () => {
      const payer = await funded(h, rpc);
      const to = newKeypair().publicKey;
      const latest = (await rpc(request('getLatestBlockhash'))).body.result.value.blockhash;
      const tx = transfer(payer, latest, 2_000_000, to);
      const signature = bs58.encode(tx.signature!);
      const { queue } = h.emulator.services;
      queue.pause();
      try {
        const sent = await rpc(request('sendTransaction', [bs58.encode(tx.serialize())]));
        expect(sent.body.result).toBe(signature);
        // Still queued (in flight): the same signature again, nothing new queued.
        expect((await rpc(request('sendTransaction', [bs58.encode(tx.serialize())]))).body.result).toBe(signature);
        expect(queue.state().pending).toBe(1);
      } finally {
        queue.resume();
      }
      await h.emulator.settle();
      expect((await rpc(request('getBalance', [to.toBase58()]))).body.result.value).toBe(2_000_000);
      expect(h.emulator.services.submissions.get(signature)).toMatchObject({ origin: 'rpc', status: 'processed' });
      const again = await rpc(request('sendTransaction', [base64(tx), { encoding: 'base64' }]));
      expect(again.body.error).toMatchObject({
        code: -32002,
        message: 'Transaction simulation failed: This transaction has already been processed',
        data: { err: 'AlreadyProcessed' },
      });
      expect((await rpc(request('sendTransaction', [base64(tx), { encoding: 'base64', skipPreflight: true }]))).body.result).toBe(signature);
      await h.emulator.settle();
      expect((await rpc(request('getBalance', [to.toBase58()]))).body.result.value).toBe(2_000_000);
    });

    it('simulates without committing, with replaceRecentBlockhash and unknown blockhashes as the validator reports them', async () => {
      const payer = await funded(h, rpc);
      const latest = (await rpc(request('getLatestBlockhash'))).body.result.value;
      const slot = Number(h.emulator.services.ledger.clock().slot);
      const ok = await rpc(request('simulateTransaction', [base64(transfer(payer, latest.blockhash, 1_000_000)), { encoding: 'base64', sigVerify: true }]));
      expect(ok.body.result.context.slot).toBe(slot);
      expect(ok.body.result.value).toMatchObject({ err: null, accounts: null, replacementBlockhash: null });
      expect(ok.body.result.value.logs).toContain('Program 11111111111111111111111111111111 success');
      expect(ok.body.result.value.unitsConsumed).toBe(150);
      const stale = transfer(payer, bs58.encode(newKeypair().publicKey.toBytes()), 1_000_000);
      const notFound = await rpc(request('simulateTransaction', [base64(stale), { encoding: 'base64' }]));
      expect(notFound.body.result.value).toMatchObject({ err: 'BlockhashNotFound', logs: [], unitsConsumed: 0 });
      const replaced = await rpc(request('simulateTransaction', [base64(stale), { encoding: 'base64', replaceRecentBlockhash: true }]));
      const { replacementBlockhash } = replaced.body.result.value;
      expect(replaced.body.result.value.err).toBeNull();
      expect(replacementBlockhash.lastValidBlockHeight).toBe(latest.lastValidBlockHeight);
      expect(h.emulator.services.ledger.isBlockhashValid(replacementBlockhash.blockhash)).toBe(true);
      expect((await rpc(request('getBalance', [payer.publicKey.toBase58()]))).body.result.value).toBe(LAMPORTS_PER_SOL);
    });
  });

  it('answers a different signature for each airdrop, even of the same amount to the same address', async () => {
    const owner = newKeypair().publicKey.toBase58();
    const first = (await rpc(request('requestAirdrop', [owner, 1_000_000]))).body.result;
    const second = (await rpc(request('requestAirdrop', [owner, 1_000_000]))).body.result;
    expect(second).not.toBe(first);
    await h.emulator.settle();
    expect((await rpc(request('getBalance', [owner]))).body.result.value).toBe(2_000_000);
    const faucet = h.emulator.services.fixtures.relay.faucet.publicKey;
    expect(h.emulator.services.submissions.get(first)!.ledger!.accountKeys[0]).toBe(faucet);
  });

  it('keeps blockhash validity with the ledger', async () => {
    const { body } = await rpc([request('isBlockhashValid', [blockhash], 1), request('isBlockhashValid', [bs58.encode(new Uint8Array(32).fill(7))], 2)]);
    expect(body[0].result.value).toBe(true);
    expect(body[1].result.value).toBe(false);
  });
});

describe('JSON-RPC endpoint: confirmation of relayed transactions', () => {
  let h: Harness;
  let rpc: ReturnType<typeof rpcClient>;
  let token: string;
  beforeAll(async () => {
    // Manual queue: a relayed transaction stays queued until stepped; finalization follows 1.5 s later.
    h = await startHarness({ queue: { mode: 'manual', finalizeMs: 1500 }, baseUrl: 'https://confirm.example.test/api' });
    token = (await h.call('GET', '/Transaction/config')).body.Token;
    rpc = rpcClient(h, () => token);
  });
  afterAll(() => h.close());

  it('reports null while queued, then confirmed, then finalized; getTransaction follows the commitment', async () => {
    const owner = newKeypair();
    const { blockhash } = (await rpc(request('getLatestBlockhash'))).body.result.value;
    const { build, createAtaInstructions } = await import('./support/transactions.ts');
    const created = await h.call('POST', '/Account/create', {
      body: { signedTransaction: build({ instructions: createAtaInstructions(owner.publicKey), blockhash, signers: [owner] }) },
    });
    const { signature } = created.body;
    const status = async () => (await rpc(request('getSignatureStatuses', [[signature], { searchTransactionHistory: true }]))).body.result.value[0];
    expect(await status()).toBeNull();
    expect((await rpc(request('getTransaction', [signature, { commitment: 'confirmed' }]))).body.result).toBeNull();

    await h.emulator.services.queue.step();
    const record = h.emulator.services.submissions.get(signature)!;
    const slot = Number(record.ledger!.slot);
    expect(await status()).toEqual({ slot, confirmations: 0, err: null, status: { Ok: null }, confirmationStatus: 'confirmed' });
    expect((await rpc(request('getTransaction', [signature, { commitment: 'confirmed' }]))).body.result.slot).toBe(slot);
    expect((await rpc(request('getTransaction', [signature]))).body.result).toBeNull();
    const owned = [owner.publicKey.toBase58()];
    expect(
      (await rpc(request('getSignaturesForAddress', [...owned, { commitment: 'confirmed' }]))).body.result.map((entry: any) => entry.confirmationStatus),
    ).toEqual(['confirmed']);
    expect((await rpc(request('getSignaturesForAddress', owned))).body.result).toEqual([]);

    await h.emulator.settle();
    expect(await status()).toEqual({ slot, confirmations: null, err: null, status: { Ok: null }, confirmationStatus: 'finalized' });
    expect((await rpc(request('getTransaction', [signature]))).body.result.meta.err).toBeNull();
    expect((await rpc(request('getSignaturesForAddress', owned))).body.result).toEqual([
      { signature, slot, err: null, memo: null, blockTime: record.ledger!.blockTime, confirmationStatus: 'finalized' },
    ]);
  });
});
