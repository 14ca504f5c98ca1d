/**
 * GET /__emulator/wallet-requests: what relay-emulator/playwright's fixture hands the emulator
 * (recordWalletRequest, under the test's label), as the web UI reads it; reset() forgets it as it
 * forgets the relays; the route is the controls', behind the admin guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';

describe('the wallet requests the web UI lists', () => {
  let emulator: RelayEmulator;
  let origin: string;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    origin = emulator.loopbackOrigin!;
  });
  afterAll(() => emulator.close());

  /** Every answer, 200 or refused, checked against the contract (openapi/relay.yaml). */
  const read = async (headers: Record<string, string> = {}) => {
    const response = await fetch(`${origin}/__emulator/wallet-requests`, { headers });
    const { status } = response;
    const body = (await assertFetchResponseMatchesSpec('GET', '/__emulator/wallet-requests', response)) as {
      requests: { id: number; test: string | null; method: string }[];
    };
    return { status, body };
  };

  it('lists what was recorded, newest first, under each test, and nothing after reset()', async () => {
    emulator.recordWalletRequest({ method: 'connect', origin: 'http://127.0.0.1:4173', legacy: false, outcome: 'approved' }, 'send.spec > approves');
    emulator.recordWalletRequest({ method: 'signTransaction', origin: 'http://127.0.0.1:4173', legacy: false, outcome: 'rejected', reason: 'no' });
    // Every shape an entry takes: a legacy and a v0 transaction, a message, a signature.
    const transaction = { feePayer: 'F', signers: ['F', 'U'], programs: ['T'], walletPaysFee: false };
    emulator.recordWalletRequest({
      method: 'signTransaction',
      origin: 'http://a',
      legacy: true,
      outcome: 'approved',
      transaction: { ...transaction, version: 'legacy' },
    });
    emulator.recordWalletRequest({
      method: 'signAndSendTransaction',
      origin: 'http://a',
      legacy: false,
      outcome: 'approved',
      transaction: { ...transaction, version: 0 },
      signature: 'S',
    });
    emulator.recordWalletRequest({ method: 'signMessage', origin: 'http://a', legacy: false, outcome: 'approved', message: 'hello' });
    const { status, body } = await read();
    expect(status).toBe(200);
    expect(body.requests.map(({ test, method }) => [test, method])).toEqual([
      [null, 'signMessage'],
      [null, 'signAndSendTransaction'],
      [null, 'signTransaction'],
      [null, 'signTransaction'],
      ['send.spec > approves', 'connect'],
    ]);
    await emulator.reset();
    expect((await read()).body).toEqual({ requests: [] });
  });

  it('is guarded as every /__emulator route is: a token once the guard asks for one', async () => {
    emulator.admin.requireToken('s3cret-token-for-this-test');
    try {
      expect((await read()).status).toBe(401);
      expect((await read({ 'X-Admin-Token': 's3cret-token-for-this-test' })).status).toBe(200);
    } finally {
      emulator.admin.requireToken(null);
    }
  });
});
