/**
 * The same plain web3.js Connection with MSW listening and `onUnhandledRequest: 'error'`, as an
 * app's test suite sets it up: web3.js (imported before MSW patches fetch) reaches the loopback
 * listener over HTTP, and its WebSocket handshake to the RPC's port + 1 goes through
 * `emulator.handlers`, which let it pass. Nothing is left unhandled.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { web3TokenFlow } from './support/web3-token-flow.ts';

describe('web3.js with a plain Connection, under MSW with onUnhandledRequest: error', () => {
  const server = setupServer();
  let emulator: RelayEmulator;
  const unhandled: string[] = [];
  const passedThrough: string[] = [];

  beforeAll(async () => {
    emulator = await createRelayEmulator({ baseUrl: 'https://relay.example.test/api' });
    server.use(...emulator.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    server.events.on('request:unhandled', ({ request }) => unhandled.push(`${request.method} ${request.url}`));
    server.events.on('request:match', ({ request }) => {
      if (request.headers.get('upgrade')?.toLowerCase() === 'websocket') passedThrough.push(request.url);
    });
  });
  afterAll(async () => {
    server.close();
    await emulator.close();
  });

  it('mints and transfers, PubSub through the handlers to the port + 1, nothing unhandled', async () => {
    const result = await web3TokenFlow(emulator.config.baseUrl, emulator.config.apiKey);
    expect(result).toMatchObject({ sender: 3_750_000n, recipient: 1_250_000n });
    expect(unhandled).toEqual([]);
    // web3.js's WebSocket went to the port + 1 of RpcUrl, through the handlers.
    const pubsubPort = String(Number(new URL(result.rpcUrl).port) + 1);
    expect(passedThrough.length).toBeGreaterThan(0);
    expect(passedThrough.every((url) => new URL(url).port === pubsubPort)).toBe(true);
  });
});
