import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/start-server.ts';

/**
 * The node adapter over real sockets: what it reads natively (headers, the body, the peer's
 * address) must answer exactly as the in-process fetch does.
 */
describe('node adapter', () => {
  let server: RunningServer;
  const FEE_PAYER = '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr';
  beforeAll(async () => {
    server = await startServer({ port: 0, emulator: { maxBodyBytes: 1024 } });
  });
  afterAll(() => server?.close());

  /** One request with node:http: chunks are written as given (chunked unless Content-Length is set). */
  function send(options: { method?: string; path: string; headers?: Record<string, string | string[]>; chunks?: string[] }) {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: any }>((resolve, reject) => {
      const req = httpRequest(`${server.origin}${options.path}`, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null }));
      });
      req.on('error', reject);
      for (const chunk of options.chunks ?? []) req.write(chunk);
      req.end();
    });
  }
  const auth = () => ({ 'X-API-Key': server.emulator.config.apiKey, 'Content-Type': 'application/json' });
  const infoPath = '/api/Account/getaccountinfo';

  it('assembles a chunked body sent in pieces', async () => {
    const body = JSON.stringify({ accountAddress: FEE_PAYER });
    const response = await send({ path: infoPath, headers: auth(), chunks: [body.slice(0, 5), body.slice(5, 20), body.slice(20)] });
    expect(response.status).toBe(200);
    expect(response.body.accountInfo.address).toBe(FEE_PAYER);
  });

  it('answers 413 for a chunked body past the limit, and for a declared one, and keeps serving', async () => {
    const big = JSON.stringify({ accountAddress: 'A'.repeat(2048) });
    const streamed = await send({ path: infoPath, headers: auth(), chunks: [big.slice(0, 600), big.slice(600)] });
    expect([streamed.status, streamed.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const declared = await send({ path: infoPath, headers: { ...auth(), 'Content-Length': String(big.length) }, chunks: [big] });
    expect([declared.status, declared.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const after = await send({ path: infoPath, headers: auth(), chunks: [JSON.stringify({ accountAddress: FEE_PAYER })] });
    expect(after.status).toBe(200);
  });

  it('survives a client that goes away mid-body, and journals nothing for it', async () => {
    const before = server.emulator.requestJournal({ path: infoPath }).length;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `POST ${infoPath} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${server.emulator.config.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ` +
            `200\r\n\r\n{"accountAddress"`,
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve()).on('error', reject);
    });
    const after = await send({ path: infoPath, headers: auth(), chunks: [JSON.stringify({ accountAddress: FEE_PAYER })] });
    expect(after.status).toBe(200);
    expect(
      server.emulator
        .requestJournal({ path: infoPath })
        .slice(before)
        .map((entry) => entry.status),
    ).toEqual([200]);
  });

  it('reads headers as fetch would: a repeated X-API-Key is one joined value, and wrong', async () => {
    const repeated = await send({
      method: 'GET',
      path: '/api/Transaction/config',
      headers: { 'X-API-Key': [server.emulator.config.apiKey, server.emulator.config.apiKey] },
    });
    expect([repeated.status, repeated.body.code]).toEqual([401, 'API_KEY_INVALID']);
    const inProcess = await server.emulator.fetch(
      new Request(`${server.origin}/api/Transaction/config`, {
        headers: [
          ['X-API-Key', server.emulator.config.apiKey],
          ['X-API-Key', server.emulator.config.apiKey],
        ],
      }),
    );
    expect(inProcess.status).toBe(401);
    const once = await send({ method: 'GET', path: '/api/Transaction/config', headers: { 'x-api-key': server.emulator.config.apiKey } });
    expect(once.status).toBe(200);
  });

  it('journals the body it read and the socket address, not a claimed X-Forwarded-For', async () => {
    const body = JSON.stringify({ accountAddress: FEE_PAYER });
    await send({ path: infoPath, headers: { ...auth(), 'X-Forwarded-For': '203.0.113.9' }, chunks: [body] });
    const [entry] = server.emulator.requestJournal({ path: infoPath, limit: 1 });
    expect(entry).toMatchObject({ clientIp: '127.0.0.1', operationId: 'getAccountInfo', requestBody: { accountAddress: FEE_PAYER }, status: 200 });
  });

  it('serves a Host in a form URL parsing rewrites (capitals, a short IPv4) as its canonical form, where the node server answered an empty 400', async () => {
    const port = String(server.port);
    for (const host of [`LocalHost:${port}`, `127.1:${port}`, `Relay-Emulator.Test:${port}`]) {
      const response = await send({ method: 'GET', path: '/api/Transaction/config', headers: { ...auth(), Host: host } });
      expect(response.status, host).toBe(200);
    }
    // The control routes' Host check sees the canonical name: a loopback name passes, a foreign one still does not.
    expect((await send({ method: 'GET', path: '/__emulator/overview', headers: { Host: `LOCALHOST:${port}` } })).status).toBe(200);
    const foreign = await send({ method: 'GET', path: '/__emulator/overview', headers: { Host: `Evil.Example:${port}` } });
    expect([foreign.status, foreign.body.code]).toEqual([403, 'HOST_NOT_ALLOWED']);
  });
});
