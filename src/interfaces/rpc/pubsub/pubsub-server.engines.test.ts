/**
 * Issue 53: a PubSub client that stops reading cannot make the emulator hold its notifications
 * without end: past `maxUnreadBytes` unread, its connection is dropped and its subscriptions end.
 */
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../../assembly/emulator.ts';
import { upgradeToPubSub } from './pubsub-server.ts';

const MIB = 1024 * 1024;

describe('a subscriber that stops reading', () => {
  let emulator: RelayEmulator;
  beforeAll(async () => {
    emulator = await createRelayEmulator({ rpcAuth: false });
  });
  afterAll(() => emulator.close());

  it('is dropped once its unread notifications pass the bound', async () => {
    const server = createServer();
    server.on('upgrade', (request, socket, head) => void upgradeToPubSub(emulator.services, request, socket, head, { maxUnreadBytes: 256 * 1024 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const address = Keypair.generate().publicKey;
    const owner = Keypair.generate().publicKey.toBase58();
    // A raw client: the handshake, one subscription, and then it reads nothing.
    const client = connect(port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    client.write(
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    const subscribe = Buffer.from(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'accountSubscribe', params: [address.toBase58(), { encoding: 'base64', commitment: 'processed' }] }),
    );
    const mask = Buffer.from([1, 2, 3, 4]);
    const masked = Buffer.from(subscribe.map((byte, index) => byte ^ mask[index % 4]!));
    client.write(Buffer.concat([Buffer.from([0x81, 0x80 | 126, subscribe.length >> 8, subscribe.length & 0xff]), mask, masked]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.pause();
    let closed = false;
    client.once('close', () => (closed = true));
    // Each write of a 1 MiB account is a notification of 1.4 MB: the kernel's buffers fill, then ours.
    const lamports = await emulator.services.ledger.minimumBalanceForRentExemption(MIB);
    for (let write = 0; write < 40 && !closed; write += 1) {
      await emulator.setAccount(address, { lamports, owner, data: new Uint8Array(MIB).fill(write), executable: false });
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    // The server dropped it: the socket ends once what the kernel holds is read.
    client.resume();
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
    server.close();
  });
});
