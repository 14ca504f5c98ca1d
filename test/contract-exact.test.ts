import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec, schemaErrors } from './support/openapi.ts';
import { ALICE, build, createAtaInstructions, KIN } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

let h: Harness;
let origin: string;
beforeAll(async () => {
  h = await startHarness();
  origin = new URL(h.emulator.config.baseUrl).origin;
});
afterAll(() => h?.close());

/** Sends a request and checks the answer against the contract (the operation at `contractPath`, default the URL's). */
async function send(method: string, url: string, body?: string, headers: Record<string, string> = {}, contractPath?: string) {
  const response = await fetch(url, { method, headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers }, body });
  const path = new URL(url).pathname;
  const parsed = await assertFetchResponseMatchesSpec(method, contractPath ?? (path.startsWith('/api') ? path.slice(4) : path), response);
  return { status: response.status, body: parsed as any, contentType: response.headers.get('content-type') };
}
const api = (method: string, path: string, body?: unknown, contractPath?: string) =>
  send(
    method,
    `${h.emulator.config.baseUrl}${path}`,
    body === undefined ? undefined : JSON.stringify(body),
    { 'X-API-Key': h.emulator.config.apiKey },
    contractPath,
  );
const root = (method: string, path: string, body?: string) => send(method, `${origin}${path}`, body);
const valid = (schema: string, value: unknown) => schemaErrors(schema, value) === null;

describe('valid by the schema but refused: now refused by the schema too, or accepted', () => {
  it('{"signedTransaction": ""}: the schema states standard padded base64 of at least one byte (rule W1)', async () => {
    expect(valid('SignedTransactionRequest', { signedTransaction: '' })).toBe(false);
    expect(valid('SignedTransactionRequest', { signedTransaction: '   ' })).toBe(false);
    expect(valid('SignedTransactionRequest', { signedTransaction: 'AAAA==' })).toBe(false);
    expect(valid('SignedTransactionRequest', { signedTransaction: ' AQID ' })).toBe(true);
    for (const signedTransaction of ['', '   ', 'not base64!']) {
      expect(await api('POST', '/Transaction/send', { signedTransaction }), signedTransaction).toMatchObject({ status: 400, body: { code: 'INVALID_BASE64' } });
    }
    // Base64 that is not a transaction is the domain's refusal (rule W3), which the schema cannot say.
    expect(await api('POST', '/Transaction/send', { signedTransaction: ' AQID ' })).toMatchObject({ status: 400, body: { code: 'INVALID_TRANSACTION' } });
  });

  it('an address that matches the pattern but is not 32 bytes: the schema states format solana-address', async () => {
    const notAKey = 'z'.repeat(44);
    expect(valid('Address', notAKey)).toBe(false);
    expect(valid('Address', '1'.repeat(32))).toBe(true); // 32 zero bytes: a key
    expect(valid('Address', ALICE.publicKey.toBase58())).toBe(true);
    expect(valid('Signature', '5'.repeat(64))).toBe(false); // base58, but 47 bytes
    expect(await api('POST', '/Account/balance', { accountAddress: notAKey })).toMatchObject({ status: 400, body: { code: 'INVALID_ADDRESS' } });
    expect(await root('GET', `/__emulator/accounts/${notAKey}`)).toMatchObject({ status: 400, body: { code: 'INVALID_ADDRESS' } });
    // The legacy routes' keys are keys in the contract too (their path segments and bodies).
    const legacy = await send('GET', `${h.emulator.config.baseUrl}/account/balance/devnet/1/${notAKey}`);
    expect(legacy).toMatchObject({ status: 400, body: { statusCode: 400, error: 'Bad Request' } });
  });

  it('a negative legacy index is an integer, as NestJS parses it: 404 APP_NOT_FOUND, not 400', async () => {
    const answer = await send('GET', `${h.emulator.config.baseUrl}/transaction/transaction/devnet/-956449453/${'1'.repeat(64)}`);
    expect(answer).toMatchObject({ status: 404, body: { statusCode: 404, error: 'Not Found' } });
    expect(answer.body.message).toBe('app--956449453-devnet: App not found.');
    expect((await send('GET', `${h.emulator.config.baseUrl}/app/devnet/1.5/config`)).body.message).toBe('Validation failed (numeric string is expected)');
  });

  it(
    'the cross-field rules of /__emulator/faults and /__emulator/faucet are the schema’s: code with problem, delayMs with delay, mint with ' + 'amount',
    async () => {
      expect(valid('EmulatorFault', { operation: 'send', kind: 'problem' })).toBe(false);
      expect(valid('EmulatorFault', { operation: 'send', kind: 'delay' })).toBe(false);
      expect(valid('EmulatorFault', { operation: 'send', kind: 'problem', code: 'QUEUE_FULL', delayMs: 5 })).toBe(true);
      expect(valid('EmulatorFault', { operation: 'send', kind: 'ledger', code: 'QUEUE_FULL' })).toBe(true);
      expect(valid('EmulatorFaucetRequest', { address: ALICE.publicKey.toBase58(), amount: '1' })).toBe(false);
      const problem = await root('POST', '/__emulator/faults', JSON.stringify({ operation: 'send', kind: 'problem' }));
      expect(problem).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', errors: [{ path: 'code' }] } });
      expect((await root('POST', '/__emulator/faults', JSON.stringify({ operation: 'send', kind: 'delay', count: 2 }))).body.errors).toEqual([
        { path: 'delayMs', message: 'is required' },
      ]);
      expect((await root('POST', '/__emulator/faults', JSON.stringify({ operation: 'send', kind: 'ledger', code: 'QUEUE_FULL' }))).status).toBe(200);
      await h.emulator.reset();
    },
  );

  it('the clock: warpSlots and slot together are refused by the schema; a slot in the past is 409, a state the schema cannot know', async () => {
    expect(valid('EmulatorClockRequest', { warpSlots: 1, slot: 5 })).toBe(false);
    expect(await root('POST', '/__emulator/clock', JSON.stringify({ warpSlots: 1, slot: 5 }))).toMatchObject({
      status: 400,
      body: { detail: 'must not have both warpSlots and slot' },
    });
    expect(await root('POST', '/__emulator/clock', JSON.stringify({ slot: 0 }))).toMatchObject({ status: 409, body: { code: 'SLOT_IN_THE_PAST' } });
  });

  it('the clock’s unixTimestamp: an integer past ±(2^53 − 1), which JSON.parse rounds, is refused by the schema too', async () => {
    for (const unixTimestamp of ['99999999999999999999', '9223372036854775807', '-9007199254740993']) {
      expect(valid('EmulatorClockRequest', JSON.parse(`{"unixTimestamp": ${unixTimestamp}}`)), unixTimestamp).toBe(false);
      expect(await root('POST', '/__emulator/clock', `{"unixTimestamp": ${unixTimestamp}}`), unixTimestamp).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_FAILED' },
      });
    }
    const before = h.emulator.clock();
    expect(valid('EmulatorClockRequest', { unixTimestamp: Number.MAX_SAFE_INTEGER })).toBe(true);
    expect(await root('POST', '/__emulator/clock', JSON.stringify({ slot: Number(before.slot), unixTimestamp: Number.MIN_SAFE_INTEGER }))).toMatchObject({
      status: 200,
      body: { unixTimestamp: Number.MIN_SAFE_INTEGER },
    });
    await h.emulator.reset();
  });
});

describe('invalid by the schema but accepted: now refused', () => {
  it('/__emulator/journal/transactions?operation= (an empty value is a value, and not one of the enum)', async () => {
    expect(await root('GET', '/__emulator/journal/transactions?operation=')).toMatchObject({
      status: 400,
      body: { code: 'INVALID_QUERY', errors: [{ path: 'operation' }] },
    });
    expect(await root('GET', '/__emulator/journal/transactions?status=')).toMatchObject({ status: 400, body: { code: 'INVALID_QUERY' } });
    // Where the contract says allowEmptyValue, empty is no filter.
    expect(await root('GET', '/__emulator/journal/transactions?signature=')).toMatchObject({ status: 200, body: { transactions: [] } });
    expect((await root('GET', '/__emulator/journal/requests?method=&path=')).status).toBe(200);
  });

  it('POST /__emulator/clock with body null, or with no body (its body is required)', async () => {
    const before = h.emulator.clock();
    expect(await root('POST', '/__emulator/clock', 'null')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await root('POST', '/__emulator/clock')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await root('POST', '/__emulator/clock', '{}')).toMatchObject({ status: 200, body: { slot: before.slot } });
  });

  it('PageNumber=99999999999999999999 (the schema says int32, as the ASP.NET service binds it)', async () => {
    const wallet = ALICE.publicKey.toBase58();
    for (const page of ['99999999999999999999', '2147483648', '9007199254740993']) {
      // The answer names the bound, not "must be integer" of an integer too large to read exactly.
      expect(await api('POST', `/Account/gethistory?WalletAddress=${wallet}&PageNumber=${page}`), page).toMatchObject({
        status: 400,
        body: { code: 'INVALID_QUERY', errors: [{ path: 'PageNumber', message: 'must be at most 2147483647' }] },
      });
    }
    expect(await api('POST', `/Account/gethistory?WalletAddress=${wallet}&PageNumber=2147483647`)).toMatchObject({ status: 200, body: { transactions: [] } });
    expect((await api('POST', `/Account/gethistory?WalletAddress=${wallet}&PageNumber=`)).body.code).toBe('INVALID_QUERY');
    expect((await api('POST', `/Account/gethistory?WalletAddress=${wallet}&MintAddress=`)).status).toBe(200);
  });

  it('a legacy transaction lookup with signature ../../../ is refused, never echoed', async () => {
    const answer = await send('GET', `${h.emulator.config.baseUrl}/transaction/transaction/devnet/1/${encodeURIComponent('../../../')}`);
    expect(answer).toMatchObject({ status: 400, body: { statusCode: 400, message: 'signature is not a base58 transaction signature.' } });
    expect(JSON.stringify(answer.body)).not.toContain('../');
    // 64 bytes of base58 the emulator never relayed: Kinetic's null answer.
    const unknown = '1'.repeat(64);
    expect(await send('GET', `${h.emulator.config.baseUrl}/transaction/transaction/devnet/1/${unknown}`)).toMatchObject({
      status: 200,
      body: { signature: unknown, status: null, transaction: null },
    });
  });
});

describe('POST /account/create and /account/close without environment: the body decides', () => {
  const legacyBody = () => ({ commitment: 'Confirmed', index: 1, mint: KIN.toBase58(), lastValidBlockHeight: 0, tx: 'AQID' });

  it('a legacy body that forgot environment gets the legacy error body, {statusCode, message, error}', async () => {
    for (const path of ['/account/create', '/account/close']) {
      const body = path.endsWith('close') ? { account: ALICE.publicKey.toBase58(), commitment: 'Confirmed', index: 1, mint: KIN.toBase58() } : legacyBody();
      const answer = await send('POST', `${h.emulator.config.baseUrl}${path}`, JSON.stringify(body));
      expect(answer.status, path).toBe(400);
      expect(answer.contentType, path).toMatch(/^application\/json/);
      expect(answer.body, path).toEqual({ statusCode: 400, message: 'environment is required', error: 'Bad Request' });
    }
  });

  it('a current body, an empty body and no body stay the current operation’s (problem+json)', async () => {
    const signedTransaction = build({ instructions: createAtaInstructions(newKeypair().publicKey), blockhash: await h.blockhash(), signers: [] });
    expect((await api('POST', '/account/create', { signedTransaction }, '/Account/create')).body.code).toBe('SIGNATURE_MISSING');
    expect((await api('POST', '/account/create', {}, '/Account/create')).body.code).toBe('VALIDATION_FAILED');
    // No body and no key: judged by the body (400), not 401, which the legacy operation does not list (issue 45, item 12).
    expect(await send('POST', `${h.emulator.config.baseUrl}/account/close`, undefined, {}, '/Account/close')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED' },
      contentType: expect.stringMatching(/^application\/problem\+json/),
    });
    // A body of both kinds is the current operation's, unless it carries environment, which is the legacy one's word.
    expect((await api('POST', '/account/create', { signedTransaction, mint: KIN.toBase58() }, '/Account/create')).body.code).toBe('SIGNATURE_MISSING');
    expect(
      (await send('POST', `${h.emulator.config.baseUrl}/account/create`, JSON.stringify({ signedTransaction, environment: 'devnet' }))).body.statusCode,
    ).toBe(400);
  });
});
