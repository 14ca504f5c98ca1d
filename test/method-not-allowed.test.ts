import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';

/**
 * Issue 34, fuzz finding 6: the paths served outside the routers answer a method they do not take
 * with 405 and `Allow` (GET /kora and TRACE /liveness answered 404, TRACE /kora 405 without Allow,
 * OPTIONS / said `Allow: GET` though POST / is the RPC), and a JSON-RPC id of 1.5 is echoed.
 */
describe('a method a path does not take', () => {
  let emulator: RelayEmulator;
  let origin: URL;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    origin = new URL(new URL(emulator.config.rpcUrl).origin);
  });
  afterAll(() => emulator.close());

  /** Over node's http, which sends TRACE (fetch refuses to). */
  const send = (method: string, path: string) =>
    new Promise<{ status: number; allow: string | undefined; type: string | undefined }>((resolve, reject) => {
      const request = httpRequest({ host: origin.hostname, port: origin.port, method, path }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode!, allow: response.headers.allow, type: response.headers['content-type'] }));
      });
      request.on('error', reject);
      request.end();
    });

  it('is 405 with Allow on /kora, /liveness and /', async () => {
    for (const [method, path, allow] of [
      ['GET', '/kora', 'POST'],
      ['TRACE', '/kora', 'POST'],
      ['PUT', '/kora', 'POST'],
      ['TRACE', '/liveness', 'GET'],
      ['DELETE', '/liveness', 'GET'],
      ['OPTIONS', '/', 'GET, POST'],
      ['PUT', '/', 'GET, POST'],
    ] as const) {
      const answer = await send(method, path);
      expect(answer, `${method} ${path}`).toMatchObject({ status: 405, allow });
      expect(answer.type).toMatch(/^application\/problem\+json/);
    }
    // What they take still answers.
    expect((await send('GET', '/liveness')).status).toBe(200);
    expect((await send('GET', '/')).status).toBe(200);
  });

  it('echoes a JSON-RPC id that is a fraction, a string or null', async () => {
    for (const id of [1.5, 'seven', null]) {
      const response = await fetch(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'getSlot' }),
      });
      // Held to the contract's JsonRpcResponse, whose id was an integer.
      const body = (await assertFetchResponseMatchesSpec('POST', '/rpc', response)) as { id: unknown };
      expect(body.id).toBe(id);
    }
  });
});
