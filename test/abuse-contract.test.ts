/**
 * Contract gaps found by schema-generated requests (issue: faults and abuse, item 8). Each failed
 * before its fix: a legacy create or close whose body is JSON but no object fell through to the
 * current interface (401 API_KEY_MISSING), and a queue latency the schema allowed was refused for
 * a bound it did not state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/index.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';

describe('contract gaps', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => server.close());

  const send = async (method: string, path: string, body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.origin}${path}`, { method, headers: { 'Content-Type': 'application/json', ...headers }, body });
    await assertFetchResponseMatchesSpec(method, path, response.clone());
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
  };

  it('answers a legacy create or close whose body is JSON but no object with the legacy 400, and the current interface with X-API-Key', async () => {
    for (const operation of ['create', 'close']) {
      for (const body of ['[null,null]', 'null', '"x"', '5', '[]']) {
        const legacy = await send('POST', `/api/account/${operation}`, body);
        expect(legacy, `${operation} ${body}`).toMatchObject({ status: 400, body: { statusCode: 400, error: 'Bad Request' } });
        expect(legacy.type).toMatch(/^application\/json/);
        const current = await send('POST', `/api/Account/${operation}`, body, { 'X-API-Key': server.emulator.config.apiKey });
        expect(current, `${operation} ${body}`).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
        expect(current.type).toMatch(/^application\/problem\+json/);
      }
      // An object with fields of neither, and no credential: the current interface's, judged by its body first (issue 45, item 12).
      // (Checked against the current operation: the path is the same, case aside.)
      expect(await send('POST', `/api/Account/${operation}`, '{}')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
      // A current body without a credential is still 401.
      expect((await send('POST', `/api/Account/${operation}`, '{"signedTransaction":"AQ=="}')).body).toMatchObject({ code: 'API_KEY_MISSING' });
    }
  });

  it('answers account/create and close with no body, or one that is not JSON, and no key for the body (400, 415), never 401 (issue 45, item 12)', async () => {
    // The legacy operation lists no 401: a legacy client never sends a key. Each answer is held to the legacy operation's contract.
    const raw = async (path: string, body: string | undefined, headers: Record<string, string>) => {
      const response = await fetch(`${server.origin}${path}`, { method: 'POST', headers, body });
      await assertFetchResponseMatchesSpec('POST', path, response.clone());
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    for (const operation of ['create', 'close']) {
      const path = `/api/account/${operation}`;
      expect(await raw(path, undefined, {})).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
      expect(await raw(path, '', { 'Content-Type': 'application/json' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
      expect(await raw(path, '{not json', { 'Content-Type': 'application/json' })).toMatchObject({ status: 400, body: { code: 'MALFORMED_JSON' } });
      expect(await raw(path, '{not json', { 'Content-Type': 'text/plain' })).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    }
  });

  it('refuses a query parameter the operation does not declare on the current and emulator interfaces, naming what it takes (issue 45, item 12)', async () => {
    const get = async (method: string, path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.origin}${path}`, { method, headers });
      await assertFetchResponseMatchesSpec(method, path.split('?')[0]!, response.clone());
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const wallet = server.emulator.config.feePayer;
    const key = { 'X-API-Key': server.emulator.config.apiKey };
    // A mint filter under a name the spec does not show answered unfiltered; now it says which names bind.
    const history = await get('POST', `/api/Account/gethistory?WalletAddress=${wallet}&Mint=${wallet}`, key);
    expect(history).toMatchObject({ status: 400, body: { code: 'INVALID_QUERY' } });
    expect(history.body.detail).toMatch(
      /Mint is not a query parameter: this operation takes WalletAddress or address, PageNumber or Page, PageSize, MintAddress, Limit/,
    );
    // Declared names and their aliases, in any case, still bind.
    expect((await get('POST', `/api/Account/gethistory?walletaddress=${wallet}&Page=0&pagesize=5`, key)).status).toBe(200);
    for (const path of ['/__emulator/relays?bogus=1', '/__emulator/journal/requests?limitt=5']) {
      expect(await get('GET', path), path).toMatchObject({ status: 400, body: { code: 'INVALID_QUERY' } });
    }
    expect((await get('GET', '/__emulator/journal/requests?limit=5')).status).toBe(200);
    // The legacy interface ignores it, as Kinetic's NestJS did.
    expect((await get('GET', '/api/app/devnet/1/config?extra=1')).status).toBe(200);
  });

  it('states the queue latency bound in the schema, and the route keeps to it', async () => {
    const set = (latencyMs: string) => send('PUT', '/__emulator/queue', `{"latencyMs":${latencyMs}}`);
    expect(await set('2147483647')).toMatchObject({ status: 200, body: { latencyMs: 2147483647 } });
    for (const value of ['2147483648', '3.9e22', '-1', '1.5']) {
      const refused = await set(value);
      expect(refused, value).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    }
    expect(String((await set('3.9e22')).body.detail)).toMatch(/2147483647/);
    expect(await set('0')).toMatchObject({ status: 200, body: { latencyMs: 0 } });
  });
});
