/**
 * When the RPC and PubSub need the config's Token (option `rpcAuth`, src/domain/auth/rpc-auth.ts), and
 * where PubSub answers: the RPC's own port and the next one, where web3.js and gill look by
 * themselves. Real HTTP and real WebSockets to 127.0.0.1, no MSW in this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { startServer, type RunningServer } from '../src/adapters/server/index.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';

const health = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' });

function post(url: string, authorization?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
    body: health,
  });
}

/** Opens a WebSocket and asks slotSubscribe; resolves with the subscription id, or the HTTP status that refused the handshake. */
function subscribe(url: string, headers: Record<string, string> = {}): Promise<{ subscription: number } | { refused: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no answer from ${url}`));
    }, 5_000);
    socket.once('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      resolve({ refused: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' })));
    socket.once('message', (data) => {
      clearTimeout(timer);
      resolve({ subscription: (JSON.parse(data.toString()) as { result: number }).result });
      socket.close();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

async function tokenOf(baseUrl: string, apiKey: string): Promise<string> {
  const config = (await (await fetch(`${baseUrl}/Transaction/config`, { headers: { 'X-API-Key': apiKey } })).json()) as { Token: string };
  return config.Token;
}

describe('in process, by default (rpcAuth remote)', () => {
  let emulator: RelayEmulator;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
  });
  afterAll(() => emulator.close());

  it('listens on two consecutive ports and names the second as the PubSub URL', () => {
    const port = Number(new URL(emulator.loopbackOrigin!).port);
    expect(emulator.config.pubsubUrl).toBe(`ws://127.0.0.1:${port + 1}/rpc`);
    expect(emulator.config.rpcAuth).toBe('remote');
  });

  it('answers the RPC without a Token, at rpcUrl and at POST / on both ports, and still refuses a bad Token', async () => {
    const port = Number(new URL(emulator.loopbackOrigin!).port);
    for (const url of [emulator.config.rpcUrl, `http://127.0.0.1:${port}/`, `http://127.0.0.1:${port + 1}/`, `http://127.0.0.1:${port + 1}/rpc`]) {
      const response = await post(url);
      expect(await assertFetchResponseMatchesSpec('post', '/rpc', response), url).toEqual({ jsonrpc: '2.0', result: 'ok', id: 1 });
    }
    const garbage = await post(emulator.config.rpcUrl, 'Bearer not.a.jwt');
    expect(garbage.status).toBe(401);
    expect(await assertFetchResponseMatchesSpec('post', '/rpc', garbage)).toMatchObject({ code: 'TOKEN_INVALID' });
    // GET / stays the web UI.
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('serves PubSub without a Token on the RPC port and the next, at /rpc and at /, and refuses a bad Token', async () => {
    const port = Number(new URL(emulator.loopbackOrigin!).port);
    for (const url of [`ws://127.0.0.1:${port}/rpc`, `ws://127.0.0.1:${port + 1}/rpc`, `ws://127.0.0.1:${port + 1}`]) {
      expect(await subscribe(url), url).toMatchObject({ subscription: expect.any(Number) });
    }
    expect(await subscribe(`ws://127.0.0.1:${port + 1}/rpc?token=garbage`)).toEqual({ refused: 401 });
    const token = await tokenOf(emulator.config.baseUrl, emulator.config.apiKey);
    expect(await subscribe(`ws://127.0.0.1:${port + 1}/rpc?token=${token}`)).toMatchObject({ subscription: expect.any(Number) });
  });
});

describe('rpcAuth always', () => {
  it('refuses the RPC and PubSub without the Token, even in process and on loopback', async () => {
    const emulator = await createRelayEmulator({ rpcAuth: 'always' });
    try {
      expect(
        (await emulator.fetch(new Request(emulator.config.rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: health }))).status,
      ).toBe(401);
      expect((await post(emulator.config.rpcUrl)).status).toBe(401);
      expect(await subscribe(emulator.config.pubsubUrl!)).toEqual({ refused: 401 });
      const token = await tokenOf(emulator.config.baseUrl, emulator.config.apiKey);
      expect((await post(emulator.config.rpcUrl, `Bearer ${token}`)).status).toBe(200);
      expect(await subscribe(`${emulator.config.pubsubUrl!}?token=${token}`)).toMatchObject({ subscription: expect.any(Number) });
    } finally {
      await emulator.close();
    }
  });
});

describe('a server bound to a non-loopback address', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ host: '0.0.0.0', port: 0 });
  });
  afterAll(() => server.close());

  it('needs the Token on the RPC and PubSub by default (traffic sent to 127.0.0.1 only)', async () => {
    const rpcUrl = `http://127.0.0.1:${server.port}/rpc`;
    expect(server.loopbackBind).toBe(false);
    expect((await post(rpcUrl)).status).toBe(401);
    expect(await subscribe(`ws://127.0.0.1:${server.port + 1}/rpc`)).toEqual({ refused: 401 });
    const token = await tokenOf(`http://127.0.0.1:${server.port}/api`, server.emulator.config.apiKey);
    expect((await post(rpcUrl, `Bearer ${token}`)).status).toBe(200);
    expect(await subscribe(`ws://127.0.0.1:${server.port + 1}/rpc?token=${token}`)).toMatchObject({ subscription: expect.any(Number) });
    expect(await subscribe(`ws://127.0.0.1:${server.port + 1}/rpc`, { Authorization: `Bearer ${token}` })).toMatchObject({ subscription: expect.any(Number) });
  });
});

describe('a server whose port + 1 is taken', () => {
  it('serves PubSub on its own port, warns, and says so in its facts', async () => {
    const first = await startServer({ port: 0 });
    try {
      // A server on the port just below first's finds its port + 1 (first's own) taken.
      const blocked = await startServer({ port: first.port - 1 }).catch(() => null);
      if (blocked === null) return; // first.port - 1 was taken by something else: nothing to learn here.
      try {
        expect(blocked.pubsubPortError).toMatch(/port \d+ is in use/);
        expect(blocked.emulator.config.pubsubUrl).toBe(`ws://127.0.0.1:${blocked.port}/rpc`);
        expect(await subscribe(`ws://127.0.0.1:${blocked.port}/rpc`)).toMatchObject({ subscription: expect.any(Number) });
      } finally {
        await blocked.close();
      }
    } finally {
      await first.close();
    }
  });
});
