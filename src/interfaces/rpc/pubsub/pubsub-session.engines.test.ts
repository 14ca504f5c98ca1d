import { Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../../assembly/emulator.ts';
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
    const response = await rpc(
      new Request(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [to, LAMPORTS_PER_SOL] }),
      }),
    );
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
    expect(byMethod.accountNotification.params.result.value).toMatchObject({
      lamports: LAMPORTS_PER_SOL,
      owner: '11111111111111111111111111111111',
      data: ['', 'base64'],
    });
    // The transaction landed in the open slot; the next slot is notified when the ledger opens it.
    expect(byMethod.slotNotification).toBeUndefined();
    await emulator.warp({ slots: 1 });
    await received(1);
    expect(messages.splice(0)).toEqual([
      { jsonrpc: '2.0', method: 'slotNotification', params: { result: { parent: slot, root: slot + 1, slot: slot + 1 }, subscription: 1 } },
    ]);

    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'signatureUnsubscribe', params: [2] }));
    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'accountUnsubscribe', params: [0] }));
    // A validator answers blockSubscribe only with --rpc-pubsub-enable-block-subscription; the emulator has no such flag.
    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'blockSubscribe', params: ['all'] }));
    await session.receive(JSON.stringify({ jsonrpc: '2.0', method: 'ping' }));
    expect(messages.splice(0)).toEqual([
      { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid subscription id.' }, id: 4 },
      { jsonrpc: '2.0', result: true, id: 5 },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 6 },
    ]);
    await session.receive(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'slotUnsubscribe', params: [1] }));
    messages.splice(0);
  });

  it('notifies logs (all, and mentions of one address), program accounts that change (with filters), and each new root', async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    const other = Keypair.generate().publicKey.toBase58();
    const call = async (id: number, method: string, params?: unknown[]) => {
      await session.receive(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return messages.splice(0).find((message) => message.id === id);
    };
    const all = (await call(10, 'logsSubscribe', ['all'])).result;
    const mentions = (await call(11, 'logsSubscribe', [{ mentions: [owner] }, { commitment: 'finalized' }])).result;
    const unrelated = (await call(12, 'logsSubscribe', [{ mentions: [other] }])).result;
    const system = (await call(13, 'programSubscribe', ['11111111111111111111111111111111', { encoding: 'base64', filters: [{ dataSize: 0 }] }])).result;
    const sized = (await call(14, 'programSubscribe', ['11111111111111111111111111111111', { encoding: 'base64', filters: [{ dataSize: 1 }] }])).result;
    const root = (await call(15, 'rootSubscribe')).result;
    expect((await call(16, 'logsSubscribe', [{ mentions: [owner, other] }])).error).toEqual({
      code: -32602,
      message: 'Invalid Request: Only 1 address supported',
    });
    const signature = await airdrop(owner);
    await emulator.settle();
    await emulator.warp({ slots: 1 });
    const slot = Number(emulator.services.submissions.get(signature)!.ledger!.slot);
    await expect.poll(() => messages.filter((message) => message.method === 'rootNotification').length).toBe(1);
    const notes = messages.splice(0);
    const of = (subscription: number) => notes.filter((message) => message.params.subscription === subscription).map((message) => message.params.result);
    const logs = { signature, err: null, logs: ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'] };
    expect(of(all)).toEqual([{ context: { slot }, value: logs }]);
    expect(of(mentions)).toEqual([{ context: { slot }, value: logs }]);
    expect(of(unrelated)).toEqual([]);
    // The airdrop wrote the faucet and the new wallet, both System accounts without data.
    expect(
      of(system)
        .map((result) => result.value.pubkey)
        .sort(),
    ).toEqual([owner, emulator.services.fixtures.relay.faucet.publicKey].sort());
    expect(of(system).find((result) => result.value.pubkey === owner).value.account).toMatchObject({ lamports: LAMPORTS_PER_SOL, data: ['', 'base64'] });
    expect(of(sized)).toEqual([]);
    expect(of(root)).toEqual([slot + 1]);
    for (const [index, subscription] of [all, mentions, unrelated].entries())
      expect((await call(20 + index, 'logsUnsubscribe', [subscription])).result).toBe(true);
    expect((await call(23, 'programUnsubscribe', [system])).result).toBe(true);
    expect((await call(24, 'rootUnsubscribe', [root])).result).toBe(true);
    expect((await call(25, 'rootUnsubscribe', [root])).error.code).toBe(-32602);
  });

  it('reads nothing for an idle account subscription, and notifies each write, changed or not (issue 53, item 6)', async () => {
    const { ledger } = emulator.services;
    let reads = 0;
    // The same ledger, counting reads: the session reads an account only when a write to it came due.
    const counting = new Proxy(ledger, {
      get(target, property) {
        if (property === 'getAccount') return (...args: Parameters<typeof ledger.getAccount>) => ((reads += 1), target.getAccount(...args));
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const seen: any[] = [];
    const idle = createPubSubSession({ ...emulator.services, ledger: counting }, (text) => seen.push(JSON.parse(text)), { pollMs: 1 });
    try {
      const owner = Keypair.generate().publicKey.toBase58();
      for (let id = 0; id < 50; id += 1)
        await idle.receive(JSON.stringify({ jsonrpc: '2.0', id, method: 'accountSubscribe', params: [owner, { commitment: 'processed' }] }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reads).toBe(0);
      // A write to it is heard by each subscription, once.
      await airdrop(owner);
      await emulator.settle();
      await expect.poll(() => seen.filter((message) => message.method === 'accountNotification').length).toBe(50);
      expect(reads).toBe(50);
      // The same lamports written again (a control's write) is a write: notified again, as a validator notifies each store.
      const key = new PublicKey(owner);
      await ledger.setAccount(key, (await ledger.getAccount(key))!);
      await expect.poll(() => seen.filter((message) => message.method === 'accountNotification').length).toBe(100);
    } finally {
      idle.close();
    }
  });

  it('refuses subscriptions past its limits, per connection and in all, as a validator words it (issue 53, item 6)', async () => {
    // An emulator of its own: the limit in all counts every connection's subscriptions.
    const own = await createRelayEmulator({ rpcAuth: false });
    const answers: any[] = [];
    const first = createPubSubSession(own.services, (text) => answers.push(JSON.parse(text)), { maxPerConnection: 3, maxActive: 5 });
    const second = createPubSubSession(own.services, (text) => answers.push(JSON.parse(text)), { maxPerConnection: 3, maxActive: 5 });
    const slotSubscribe = (session: PubSubSession, id: number) => session.receive(JSON.stringify({ jsonrpc: '2.0', id, method: 'slotSubscribe' }));
    const refused = { code: -32603, message: 'Internal Error: Subscription refused. Node subscription limit reached' };
    try {
      for (let id = 0; id < 4; id += 1) await slotSubscribe(first, id);
      expect(answers.splice(0).map((answer) => answer.error ?? 'ok')).toEqual(['ok', 'ok', 'ok', refused]);
      // 3 here, so 2 more in all.
      for (let id = 0; id < 3; id += 1) await slotSubscribe(second, id);
      expect(answers.splice(0).map((answer) => answer.error ?? 'ok')).toEqual(['ok', 'ok', refused]);
      // Unsubscribing, or closing a connection, frees its share.
      const third = createPubSubSession(own.services, (text) => answers.push(JSON.parse(text)), { maxPerConnection: 3, maxActive: 5 });
      await first.receive(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'slotUnsubscribe', params: [0] }));
      await slotSubscribe(second, 10);
      await slotSubscribe(third, 11);
      first.close();
      await slotSubscribe(third, 12);
      // A message read after its socket closed subscribes nothing.
      await slotSubscribe(first, 13);
      third.close();
      expect(answers.splice(0).map((answer) => answer.error?.message ?? answer.result)).toEqual([true, 2, refused.message, 0, 'Internal error']);
    } finally {
      first.close();
      second.close();
      await own.close();
    }
  });
});
