/**
 * A relay accepted with a valid blockhash that expires while it waits in the queue (a held queue, a
 * slow relay) is dropped as a cluster drops it: BlockhashNotFound, nothing executed, no fee, not in
 * history, and the transaction journal says why; the next relay with a fresh blockhash lands as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { ALICE, build, FEE_PAYER, transferInstruction } from './support/transactions.ts';

describe('a blockhash that expires in the queue', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const lamports = async (address = FEE_PAYER) => (await h.emulator.getAccount(address))?.lamports ?? 0n;
  const send = async () => {
    const signedTransaction = build({ instructions: [transferInstruction(ALICE, ALICE.publicKey, 1n)], signers: [ALICE], blockhash: await h.blockhash() });
    const { status, body } = await h.call('POST', '/Transaction/send', { body: { signedTransaction } });
    expect(status, JSON.stringify(body)).toBe(200);
    return body.signature as string;
  };

  const rpc = async (method: string, params: unknown[]) => {
    const token = (await h.call('GET', '/Transaction/config')).body.Token as string;
    const response = await fetch(h.emulator.config.rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await response.json()) as { result: any }).result;
  };

  it('is dropped unexecuted with BlockhashNotFound', async () => {
    const [feePayerBefore, slotBefore] = [await lamports(), h.emulator.clock().slot];
    const countBefore = (await rpc('getEpochInfo', [])).transactionCount as number;
    h.emulator.pauseQueue();
    const signature = await send();
    await h.emulator.expireBlockhash();
    await h.emulator.stepQueue();
    h.emulator.resumeQueue();
    const submission = h.emulator.services.submissions.get(signature)!;
    expect(submission.status).toBe('failed');
    expect(submission.ledger?.err).toBe('BlockhashNotFound');
    // No fee taken: a landed transaction, even a failed one, pays its fee.
    expect(await lamports()).toBe(feePayerBefore);
    // expireBlockhash() opened one slot; the dropped transaction took no seat in any.
    expect(h.emulator.clock().slot).toBe(slotBefore + 1);
    const history = await h.call('POST', `/Account/gethistory?WalletAddress=${ALICE.publicKey.toBase58()}`);
    expect(history.body.transactions.map((entry: { signature: string }) => entry.signature)).not.toContain(signature);
    const journaled = h.emulator.transactionJournal().find((entry) => entry.signature === signature);
    expect(journaled?.err).toBe('BlockhashNotFound');
    // The transaction journal agrees (issue 24.9: it recorded a 10,000-lamport fee for a transaction that never landed).
    expect(journaled?.fee).toBe(0);
    // The RPC: no block holds it (getTransaction null); its status keeps the error, so that a
    // client's confirmTransaction fails at once instead of waiting for a block height that only traffic moves.
    expect(await rpc('getTransaction', [signature, { maxSupportedTransactionVersion: 0 }])).toBeNull();
    expect((await rpc('getSignatureStatuses', [[signature]])).value[0].err).toBe('BlockhashNotFound');
    expect((await rpc('getEpochInfo', [])).transactionCount).toBe(countBefore);
  });

  it('leaves the next relay, with a fresh blockhash, to land', async () => {
    const signature = await send();
    await h.emulator.settle();
    expect(h.emulator.services.submissions.get(signature)?.ledger?.err ?? null).toBeNull();
    expect(h.emulator.services.submissions.get(signature)?.status).toBe('processed');
  });
});
