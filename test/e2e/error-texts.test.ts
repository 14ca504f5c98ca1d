/**
 * Error texts a newcomer reads (issue 25, items 6 to 10), over real HTTP to the command line's
 * server: each says what is wrong in words, and the server's log line carries the code and rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnEmulator, untilHealthy, type EmulatorProcess } from '../support/emulator-process.ts';
import { ALICE } from '../support/transactions.ts';

const API_KEY = 'relay-emulator-dev-key';

describe('error texts and log lines', () => {
  let server: EmulatorProcess;
  beforeAll(async () => {
    server = spawnEmulator({ port: await freePort(), args: ['--log-level', 'info', '--rpc-auth', 'always'] });
    await untilHealthy(server.origin);
  }, 60_000);
  afterAll(() => server.stop('SIGTERM'));

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.origin}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it('says a missing RPC token is missing (TOKEN_MISSING), not malformed', async () => {
    const { status, body } = await post('/rpc', { jsonrpc: '2.0', id: 1, method: 'getSlot' });
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: 'TOKEN_MISSING', title: expect.stringMatching(/^No bearer token was sent/) });
  });

  it('writes a missing field as a person would', async () => {
    for (const path of ['/api/Transaction/send', '/api/Account/create']) {
      const { body } = await post(path, {}, { 'X-API-Key': API_KEY });
      expect(body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: 'signedTransaction is required',
        errors: [{ path: 'signedTransaction', message: 'is required' }],
      });
    }
    const { body } = await post('/api/Transaction/send', { signedTransaction: 42 }, { 'X-API-Key': API_KEY });
    expect(body.detail).toBe('signedTransaction must be a string');
  });

  it('says where base64 went wrong and what it expects (INVALID_BASE64)', async () => {
    const { body } = await post('/api/Transaction/send', { signedTransaction: 'AQID-_==' }, { 'X-API-Key': API_KEY });
    expect(body).toMatchObject({ code: 'INVALID_BASE64', rule: 'W1' });
    expect(body.detail).toBe(
      'signedTransaction is not standard base64 (RFC 4648 §4, padded): "-" at position 4 is not a base64 character (that is base64url: use + for - and ' +
        '/ for _); expected A-Z, a-z, 0-9, + and /, padded with =',
    );
    const short = await post('/api/Transaction/send', { signedTransaction: 'AQIDB' }, { 'X-API-Key': API_KEY });
    expect(short.body.detail).toMatch(/it is 5 characters long; standard base64 comes in groups of 4/);
    const data = await fetch(`${server.origin}/__emulator/accounts/${ALICE.publicKey.toBase58()}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ lamports: 1, owner: '11111111111111111111111111111111', data: 'AA A', executable: false }),
    });
    expect(((await data.json()) as { detail: string }).detail).toMatch(/^data is not standard base64 .*a space at position 2/);
  });

  it('takes faucet lamports as a string, as amount and the fixtures write them', async () => {
    const address = '7cVfgArCheMR6Cs4t6vz5rfnqd56vZq4ndaBrY5xkxXy';
    expect(await post('/__emulator/faucet', { address, lamports: '1000000000' })).toMatchObject({ status: 200, body: { lamports: '1000000000' } });
    expect(await post('/__emulator/faucet', { address, lamports: 5 })).toMatchObject({ status: 200, body: { lamports: '1000000005' } });
    expect((await post('/__emulator/faucet', { address, lamports: 'lots' })).body.detail).toBe(
      'lamports must be a string of digits, or an integer from 0 to 9007199254740991',
    );
  });

  it('logs a refusal with its code and rule', async () => {
    await post('/api/Transaction/send', { signedTransaction: 'AQ-D' }, { 'X-API-Key': API_KEY });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.output()).toMatch(/POST \/api\/Transaction\/send 400 \d+\.\dms INVALID_BASE64 rule W1\n/);
    expect(server.output()).toMatch(/POST \/rpc 401 \d+\.\dms TOKEN_MISSING\n/);
  });
});
