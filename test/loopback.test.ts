/**
 * The in-process emulator's loopback listener: every HTTP client reaches the same core, whether MSW
 * patched it or not. The request journal tells the two mounts apart: a request that came over the
 * socket has the socket's address (127.0.0.1), one that MSW answered in process has none.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Connection } from '@solana/web3.js';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';

const getSlot = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' });

/**
 * A POST with node:http, as node-fetch, axios and most older clients send one: `http.request` looked
 * up when called, so MSW's interceptor sees it once it patched the module.
 */
function httpPost(url: string, headers: Record<string, string>, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
    });
    request.once('error', reject);
    request.end(body);
  });
}

describe('the loopback listener, with MSW listening', () => {
  // Captured before MSW patches fetch, as web3.js 1.x does at import.
  const nativeFetch = globalThis.fetch;
  const server = setupServer();
  let emulator: RelayEmulator;
  let token: string;
  const matched: string[] = [];

  beforeAll(async () => {
    emulator = await createRelayEmulator({ baseUrl: 'https://relay.example.test/api' });
    server.use(...emulator.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    server.events.on('request:match', ({ request }) => matched.push(`${request.method} ${request.url}`));
    const config = await (await fetch(`${emulator.config.baseUrl}/Transaction/config`, { headers: { 'X-API-Key': emulator.config.apiKey } })).json();
    token = (config as { Token: string }).Token;
  });
  afterAll(async () => {
    server.close();
    await emulator.close();
  });

  let calls = 0;
  /**
   * Sends one RPC request (to a URL of its own: the query is what tells its MSW events apart) and
   * returns the journal's client address for it, and whether MSW matched it.
   */
  async function rpcCall(send: (url: string) => Promise<unknown>) {
    const call = `call=${(calls += 1)}`;
    const url = `${emulator.config.rpcUrl}?${call}`;
    await send(url);
    const record = emulator.requestJournal({ path: '/rpc' }).find((entry) => entry.query.replace(/^\?/, '') === call);
    return { clientIp: record ? record.clientIp : 'not journaled', throughMsw: matched.includes(`POST ${url}`) };
  }

  it('names the loopback port in RpcUrl', () => {
    expect(emulator.loopbackOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.config.rpcUrl).toBe(`${emulator.loopbackOrigin}/rpc`);
  });

  it('answers the patched fetch through MSW, in process', async () => {
    const call = await rpcCall((url) =>
      fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: getSlot }),
    );
    expect(call).toEqual({ clientIp: null, throughMsw: true });
  });

  it('answers node:http (node-fetch, axios: MSW intercepts it too) through MSW', async () => {
    const call = await rpcCall((url) => httpPost(url, { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, getSlot));
    expect(call).toEqual({ clientIp: null, throughMsw: true });
  });

  it('answers a fetch captured before MSW over the socket: the same core, the same state', async () => {
    const call = await rpcCall((url) =>
      nativeFetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: getSlot }),
    );
    expect(call).toEqual({ clientIp: '127.0.0.1', throughMsw: false });
  });

  it('answers a web3.js Connection given the pre-MSW fetch, PubSub included', async () => {
    const connection = new Connection(emulator.config.rpcUrl, {
      fetch: (input, init) => nativeFetch(input, init),
      httpHeaders: { Authorization: `Bearer ${token}` },
      wsEndpoint: `${emulator.config.rpcUrl.replace(/^http/, 'ws')}?token=${token}`,
    });
    matched.length = 0;
    const before = emulator.requestJournal({ path: '/rpc' }).length;
    await connection.getSlot();
    const [record] = emulator.requestJournal({ path: '/rpc' }).slice(before);
    expect(record?.clientIp).toBe('127.0.0.1');
    expect(matched.filter((line) => line.startsWith('POST'))).toEqual([]);
    // The WebSocket goes through MSW's interceptor, which lets it pass to the socket.
    const slot = await new Promise<number>((resolve, reject) => {
      // Slots move on until the subscription (made once the socket is open) reports one; bounded.
      let warps = 0;
      const timer = setInterval(() => {
        if ((warps += 1) > 100) reject(new Error('no slotNotification after 100 warps'));
        else void emulator.warp({ slots: 1 });
      }, 50);
      const id = connection.onSlotChange(({ slot: next }) => {
        clearInterval(timer);
        void connection.removeSlotChangeListener(id);
        resolve(next);
      });
    });
    expect(slot).toBeGreaterThan(0);
  });

  it('answers another process over the socket', async () => {
    const script =
      `fetch(${JSON.stringify(emulator.config.rpcUrl)}, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: ` +
      `'Bearer ${token}' }, body: ${JSON.stringify(getSlot)} }).then((r) => r.json()).then((j) => console.log(JSON.stringify(j)))`;
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.once('error', reject);
      child.once('close', () => resolve(text));
    });
    expect(JSON.parse(output)).toMatchObject({ jsonrpc: '2.0', id: 1, result: expect.any(Number) });
    expect(emulator.requestJournal({ path: '/rpc' }).at(-1)?.clientIp).toBe('127.0.0.1');
  });
});

describe('option loopback', () => {
  it('false opens no socket: RpcUrl is <origin of baseUrl>/rpc', async () => {
    const emulator = await createRelayEmulator({ baseUrl: 'https://relay.example.test/api', loopback: false });
    try {
      expect(emulator.loopbackOrigin).toBeNull();
      expect(emulator.config.rpcUrl).toBe('https://relay.example.test/rpc');
    } finally {
      await emulator.close();
    }
  });

  it('by default answers real HTTP at its own base URL, until close() closes the port', async () => {
    const emulator = await createRelayEmulator();
    const origin = emulator.loopbackOrigin!;
    expect(emulator.config.baseUrl).toBe(`${origin}/api`);
    expect((await fetch(`${origin}/health`)).status).toBe(200);
    await emulator.close();
    await expect(fetch(`${origin}/health`)).rejects.toThrow();
  });
});
