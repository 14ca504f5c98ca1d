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
      // No body at all, and an object with fields of neither: still the current interface's (documented).
      // (Checked against the current operation: the path is the same, case aside.)
      expect((await send('POST', `/api/Account/${operation}`, '{}')).body).toMatchObject({ code: 'API_KEY_MISSING' });
    }
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
