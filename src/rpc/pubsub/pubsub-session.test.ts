import { Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../emulator.ts';
import { createRpcHandler } from '../create-rpc-handler.ts';
import { createPubSubSession, type PubSubSession } from './pubsub-session.ts';

describe('PubSub session', () => {
  let emulator: RelayEmulator;
  let session: PubSubSession;
  const messages: any[] = [];
  let next: (() => void) | null = null;
  const received = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (messages.length >= count ? resolve() : (next = check));
      check();
    });

  beforeAll(async () => {
    emulator = await createRelayEmulator({ rpcAuth: false });
    session = createPubSubSession(emulator.services, (text) => {
      messages.push(JSON.parse(text));
      next?.();
    });
  });
  afterAll(async () => {
    session.close();
    await emulator.close();
  });

  async function airdrop(to: string): Promise<string> {
    const rpc = createRpcHandler(emulator.services);
    const response = await rpc(new Request(emulator.config.rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [to, LAMPORTS_PER_SOL] }),
    }));
    return ((await response.json()) as { result: string }).result;
  }

  it('notifies a signature once, an account on change and each new slot; unsubscribes', async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'accountSubscribe', params: [owner, { encoding: 'base64' }] }));
    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'slotSubscribe' }));
    expect(messages.splice(0)).toEqual([
      { jsonrpc: '2.0', result: 0, id: 1 },
      { jsonrpc: '2.0', result: 1, id: 2 },
    ]);
    const signature = await airdrop(owner);
    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'signatureSubscribe', params: [signature, { commitment: 'confirmed' }] }));
    await emulator.settle();
    await received(3);
    const byMethod = Object.fromEntries(messages.splice(0).map((message) => [message.method ?? 'answer', message]));
    expect(byMethod.answer).toEqual({ jsonrpc: '2.0', result: 2, id: 3 });
    const slot = Number(emulator.services.submissions.get(signature)!.ledger!.slot);
    expect(byMethod.signatureNotification.params).toEqual({ result: { context: { slot }, value: { err: null } }, subscription: 2 });
    expect(byMethod.accountNotification.params.result.value).toMatchObject({ lamports: LAMPORTS_PER_SOL, owner: '11111111111111111111111111111111', data: ['', 'base64'] });
    // The transaction landed in the open slot; the next slot is notified when the ledger opens it.
    expect(byMethod.slotNotification).toBeUndefined();
    await emulator.warp({ slots: 1 });
    await received(1);
    expect(messages.splice(0)).toEqual([{ jsonrpc: '2.0', method: 'slotNotification', params: { result: { parent: slot, root: slot + 1, slot: slot + 1 }, subscription: 1 } }]);

    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'signatureUnsubscribe', params: [2] }));
    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'accountUnsubscribe', params: [0] }));
    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'logsSubscribe', params: ['all'] }));
    await session.receive(JSON.stringify({ jsonrpc: '2.0', method: 'ping' }));
    expect(messages.splice(0)).toEqual([
      { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid subscription id.' }, id: 4 },
      { jsonrpc: '2.0', result: true, id: 5 },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 6 },
    ]);
  });
});
