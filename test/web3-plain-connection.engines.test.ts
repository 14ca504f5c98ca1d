/**
 * A plain web3.js `new Connection(RpcUrl, { httpHeaders })` with no `wsEndpoint`, as apps write it:
 * spl-token's createMint, getOrCreateAssociatedTokenAccount, mintTo and transfer all confirm over
 * PubSub where web3.js looks by itself (the RPC's port + 1), in process and on a port. No MSW in
 * this file (test/web3-msw-connection.engines.test.ts has it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { startServer, type RunningServer } from '../src/adapters/server/index.ts';
import { web3TokenFlow } from './support/web3-token-flow.ts';

describe('web3.js with a plain Connection', () => {
  let emulator: RelayEmulator;
  let server: RunningServer;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    server = await startServer({ port: 0 });
  });
  afterAll(async () => {
    await emulator.close();
    await server.close();
  });

  it('mints and transfers in process (the loopback listener), PubSub on the RPC’s port + 1', async () => {
    const result = await web3TokenFlow(emulator.config.baseUrl, emulator.config.apiKey);
    expect(result).toMatchObject({ sender: 3_750_000n, recipient: 1_250_000n });
    expect(new URL(emulator.config.pubsubUrl!).port).toBe(String(Number(new URL(result.rpcUrl).port) + 1));
  });

  it('mints and transfers on a port (relay-emulator start), PubSub on the port + 1', async () => {
    const result = await web3TokenFlow(`${server.origin}/api`, server.emulator.config.apiKey);
    expect(result).toMatchObject({ sender: 3_750_000n, recipient: 1_250_000n });
    expect(result.rpcUrl).toBe(`${server.origin}/rpc`);
    expect(server.pubsubPortError).toBeNull();
  });
});
