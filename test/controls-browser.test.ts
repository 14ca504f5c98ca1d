import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRelayEmulator, startServer, type RunningServer } from '../src/index.ts';
import { newKeypair } from './support/keys.ts';

// The control routes against what a browser page can send, over real HTTP on a loopback bind
// (issue 16): a foreign Host (DNS rebinding), a foreign Origin with or without a preflight,
// X-Forwarded-For. Each refusal is checked on the state too: nothing ran.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request with exactly these headers (node:http, so that Host and Origin are sent as given). */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { ...(payload === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) }), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text === '' ? null : JSON.parse(text);
          } catch {
            // Not JSON: kept as text.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

const EVIL = 'https://evil.example';
const preflightHeaders = (origin: string, method = 'POST') => ({
  Origin: origin,
  'Access-Control-Request-Method': method,
  'Access-Control-Request-Headers': 'content-type',
  'Access-Control-Request-Private-Network': 'true',
});

describe('control routes over a loopback port, against browser pages', () => {
  let server: RunningServer;
  let port: number;
  const wallet = newKeypair().publicKey.toBase58();
  const lamportsOf = async () => (await server.emulator.getAccount(wallet))?.lamports ?? 0n;

  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1' });
    port = server.port;
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    await server.emulator.reset();
    // Something a reset would undo, so a refused reset is seen to have done nothing.
    await server.emulator.faucet({ address: wallet, lamports: 5_000n });
  });

  it('answers the emulator’s own names: 127.0.0.1, localhost, [::1], without Origin (curl, SDKs, test code)', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'LOCALHOST', `app.localhost:${port}`]) {
      const answer = await send(port, 'GET', '/__emulator/clock', { Host: host });
      expect(answer.status, host).toBe(200);
      // No wildcard on a control response, and no origin named when none was sent.
      expect(answer.headers['access-control-allow-origin'], host).toBeUndefined();
    }
    expect((await send(port, 'POST', '/__emulator/reset')).status).toBe(200);
    expect(await lamportsOf()).toBe(0n);
  });

  it('refuses a foreign Host (DNS rebinding): 403 HOST_NOT_ALLOWED, nothing reset', async () => {
    for (const host of [`evil.example:${port}`, 'rebind.attacker.test', `192.168.1.20:${port}`, `127.0.0.1.nip.io:${port}`]) {
      const answer = await send(port, 'POST', '/__emulator/reset', { Host: host });
      expect(answer.status, host).toBe(403);
      expect(answer.body, host).toMatchObject({ code: 'HOST_NOT_ALLOWED', status: 403 });
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(await lamportsOf()).toBe(5_000n);
    // The journal is a control too: a rebinding page cannot read it (config answers hold Tokens).
    expect((await send(port, 'GET', '/__emulator/journal/requests', { Host: `evil.example:${port}` })).body).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    // The relay API answers any Host: its CORS is open to every page already.
    expect((await send(port, 'GET', '/api/Transaction/blockhash', { Host: `evil.example:${port}`, 'X-API-Key': server.emulator.config.apiKey })).status).toBe(
      200,
    );
  });

  it('refuses a request forwarded for another machine on the open loopback bind: 403 CONTROL_FORWARDED', async () => {
    for (const headers of <Record<string, string>[]>[
      { 'X-Forwarded-For': '8.8.8.8' },
      { 'X-Forwarded-For': '127.0.0.1, 8.8.8.8' },
      { Forwarded: 'for="[2001:db8::1]:4711";proto=https' },
      { 'X-Real-IP': '10.0.0.7' },
    ]) {
      const answer = await send(port, 'POST', '/__emulator/reset', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body).toMatchObject({ code: 'CONTROL_FORWARDED' });
    }
    expect(await lamportsOf()).toBe(5_000n);
    // A local proxy forwarding a local client is this machine.
    expect((await send(port, 'GET', '/__emulator/clock', { 'X-Forwarded-For': '127.0.0.1, ::1', Forwarded: 'for=127.0.0.1:5000' })).status).toBe(200);
  });

  it('refuses a body-less POST from a foreign page (no preflight needed): 403 ORIGIN_NOT_ALLOWED, no CORS, nothing reset', async () => {
    for (const origin of [EVIL, `http://localhost:${port + 1}`, 'null', `http://127.0.0.1:${port}.evil.example`]) {
      const answer = await send(port, 'POST', '/__emulator/reset', { Origin: origin });
      expect(answer.status, origin).toBe(403);
      expect(answer.body, origin).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
      expect(answer.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    // Without Origin, the browser's Sec-Fetch-Site still tells a page of another site.
    for (const site of ['cross-site', 'same-site']) {
      expect((await send(port, 'GET', '/__emulator/journal/requests', { 'Sec-Fetch-Site': site })).body).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    }
    expect(await lamportsOf()).toBe(5_000n);
  });

  it('refuses a foreign preflight: 403, no Allow-Origin, no Allow-Private-Network', async () => {
    for (const path of ['/__emulator/faucet', '/__emulator/accounts/11111111111111111111111111111111', '/__emulator/journal/requests', '/__EMULATOR//reset']) {
      const answer = await send(port, 'OPTIONS', path, preflightHeaders(EVIL, path.includes('accounts') ? 'PUT' : 'POST'));
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
      expect(answer.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(answer.headers['access-control-allow-private-network'], path).toBeUndefined();
      expect(answer.headers['access-control-allow-methods'], path).toBeUndefined();
    }
  });

  it('serves the emulator’s own pages: a same-origin request passes, and its origin (never *) is named', async () => {
    for (const [host, origin] of [
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
      [`localhost:${port}`, `http://localhost:${port}`],
    ] as const) {
      const answer = await send(
        port,
        'POST',
        '/__emulator/faucet',
        { Host: host, Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
        { address: wallet, lamports: 1 },
      );
      expect(answer.status, origin).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe(origin);
      expect(answer.headers.vary).toMatch(/Origin/);
      const preflight = await send(port, 'OPTIONS', '/__emulator/faucet', { Host: host, ...preflightHeaders(origin) });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-private-network']).toBeUndefined();
    }
    expect(await lamportsOf()).toBe(5_002n);
  });

  it('keeps the relay API, the RPC and the docs open to browser apps: *, and Private Network Access', async () => {
    const preflight = await send(port, 'OPTIONS', '/api/Transaction/send', {
      ...preflightHeaders(EVIL),
      'Access-Control-Request-Headers': 'content-type,x-api-key',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-private-network']).toBe('true');
    const config = await send(port, 'GET', '/api/Transaction/config', { Origin: EVIL, 'X-API-Key': server.emulator.config.apiKey });
    expect(config.status).toBe(200);
    expect(config.headers['access-control-allow-origin']).toBe('*');
    expect((await send(port, 'GET', '/health', { Origin: EVIL })).headers['access-control-allow-origin']).toBe('*');
    expect((await send(port, 'OPTIONS', '/rpc', preflightHeaders(EVIL))).headers['access-control-allow-origin']).toBe('*');
  });

  it('journals and logs the refusals it answers', async () => {
    const seen: { status: number; path: string; problem: string | null }[] = [];
    const stop = server.emulator.observe((exchange) =>
      seen.push({ status: exchange.response.status, path: new URL(exchange.request.url).pathname, problem: exchange.problem?.code ?? null }),
    );
    try {
      await send(port, 'POST', '/__emulator/reset', { Origin: EVIL });
      await send(port, 'OPTIONS', '/__emulator/reset', preflightHeaders(EVIL));
    } finally {
      stop();
    }
    expect(seen).toEqual([
      { status: 403, path: '/__emulator/reset', problem: 'ORIGIN_NOT_ALLOWED' },
      { status: 403, path: '/__emulator/reset', problem: 'ORIGIN_NOT_ALLOWED' },
    ]);
    expect(server.emulator.requestJournal({ path: '/__emulator/reset' }).map((entry) => [entry.method, entry.status, entry.responseBody])).toEqual([
      ['POST', 403, expect.objectContaining({ code: 'ORIGIN_NOT_ALLOWED' })],
      ['OPTIONS', 403, expect.objectContaining({ code: 'ORIGIN_NOT_ALLOWED' })],
    ]);
  });
});

describe('control routes: origins the developer trusts, and the public URL', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', publicUrl: 'https://relay.dev.test', controlOrigins: ['http://localhost:5173'] });
  });
  afterAll(() => server?.close());

  it('lets a --control-origin page call the controls, naming that origin (no Private Network)', async () => {
    const preflight = await send(server.port, 'OPTIONS', '/__emulator/reset', preflightHeaders('http://localhost:5173'));
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(preflight.headers['access-control-allow-private-network']).toBeUndefined();
    const reset = await send(server.port, 'POST', '/__emulator/reset', { Origin: 'http://localhost:5173', 'Sec-Fetch-Site': 'same-site' });
    expect(reset.status).toBe(200);
    expect(reset.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect((await send(server.port, 'POST', '/__emulator/reset', { Origin: 'http://localhost:5174' })).body).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
  });

  it('answers to the public URL’s name and origin (a TLS proxy in front of it)', async () => {
    expect((await send(server.port, 'GET', '/__emulator/clock', { Host: 'relay.dev.test' })).status).toBe(200);
    expect((await send(server.port, 'GET', '/__emulator/clock', { Origin: 'https://relay.dev.test' })).status).toBe(200);
    expect((await send(server.port, 'GET', '/__emulator/clock', { Host: 'other.dev.test' })).body).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
  });

  it('behind an admin token, the token decides who (the Host is not checked), and a foreign Origin is still refused', async () => {
    server.emulator.admin.requireToken('let-me-in');
    try {
      const token = { 'X-Admin-Token': 'let-me-in' };
      expect((await send(server.port, 'GET', '/__emulator/clock', { ...token, Host: 'relay-emulator:8787' })).status).toBe(200);
      expect((await send(server.port, 'GET', '/__emulator/clock', { Host: 'relay-emulator:8787' })).body).toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED' });
      expect((await send(server.port, 'GET', '/__emulator/clock', { ...token, 'X-Forwarded-For': '8.8.8.8' })).status).toBe(200);
      expect((await send(server.port, 'POST', '/__emulator/reset', { ...token, Origin: EVIL })).body).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    } finally {
      server.emulator.admin.requireToken(null);
    }
  });

  it('refuses a control origin that is not an origin at start-up', async () => {
    await expect(startServer({ port: 0, controlOrigins: ['http://localhost:5173/app'] })).rejects.toThrow(/not an origin/);
  });
});

describe('control routes in process (MSW): no page can call them, nothing changes', () => {
  it('answers a request with any Origin, Host or X-Forwarded-For, with open CORS', async () => {
    const emulator = await createRelayEmulator({ baseUrl: 'https://relay.in-process.test/api' });
    try {
      const answer = await emulator.fetch(
        new Request('https://relay.in-process.test/__emulator/reset', {
          method: 'POST',
          headers: { Origin: EVIL, 'X-Forwarded-For': '8.8.8.8', 'Sec-Fetch-Site': 'cross-site' },
        }),
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      const preflight = await emulator.fetch(
        new Request('https://relay.in-process.test/__emulator/reset', { method: 'OPTIONS', headers: preflightHeaders(EVIL) }),
      );
      expect(preflight.status).toBe(204);
    } finally {
      await emulator.close();
    }
  });
});
