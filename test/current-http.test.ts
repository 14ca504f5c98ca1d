import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { validateAgainst } from './support/openapi.ts';

/** HTTP-level statuses of the current interface: 404, 405, 413, 415, 400. */
describe('HTTP errors of the current interface', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ maxBodyBytes: 4096 });
  });
  afterAll(() => h.close());

  const raw = (method: string, path: string, init: RequestInit = {}) =>
    fetch(`${h.emulator.config.baseUrl}${path}`, { method, ...init, headers: { 'X-API-Key': h.emulator.config.apiKey, ...init.headers } });

  it('404 ROUTE_NOT_FOUND for an unknown path, as problem+json', async () => {
    const response = await raw('GET', '/Transaction/nothing');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await response.json();
    validateAgainst('ProblemDetails', body);
    expect(body).toMatchObject({ code: 'ROUTE_NOT_FOUND', type: 'urn:relay-emulator:problem:route-not-found', instance: '/api/Transaction/nothing' });
  });

  it('405 METHOD_NOT_ALLOWED with Allow for a known path and the wrong method', async () => {
    const response = await raw('GET', '/Account/create');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    const body = await response.json();
    validateAgainst('ProblemDetails', body);
    expect(body.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('413 PAYLOAD_TOO_LARGE past the body limit, declared or streamed', async () => {
    const big = JSON.stringify({ signedTransaction: 'A'.repeat(5000) });
    const response = await h.call('POST', '/Transaction/send', { rawBody: big, headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    // A chunked body with no Content-Length is cut off while streaming (in-process: MSW buffers bodies).
    const streamed = await h.emulator.fetch(
      new Request(`${h.emulator.config.baseUrl}/Transaction/send`, {
        method: 'POST',
        body: stream,
        headers: { 'Content-Type': 'application/json', 'X-API-Key': h.emulator.config.apiKey },
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
  });

  it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
    const response = await h.call('POST', '/Transaction/send', {
      rawBody: 'signedTransaction=abc',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('400 MALFORMED_JSON for invalid JSON and invalid UTF-8', async () => {
    const response = await h.call('POST', '/Transaction/send', { rawBody: '{"signedTransaction": ', headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('MALFORMED_JSON');
    const utf8 = await h.call('POST', '/Transaction/send', {
      rawBody: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(utf8.status).toBe(400);
    expect(utf8.body.code).toBe('MALFORMED_JSON');
  });

  it('matches paths case-insensitively, as the real service does', async () => {
    expect((await h.call('GET', '/transaction/CONFIG')).status).toBe(200);
  });
});
