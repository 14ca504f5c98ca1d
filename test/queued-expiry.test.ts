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

  it('is dropped unexecuted with BlockhashNotFound', async () => {
    const [feePayerBefore, slotBefore] = [await lamports(), h.emulator.clock().slot];
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
    expect(h.emulator.transactionJournal().find((entry) => entry.signature === signature)?.err).toBe('BlockhashNotFound');
  });

  it('leaves the next relay, with a fresh blockhash, to land', async () => {
    const signature = await send();
    await h.emulator.settle();
    expect(h.emulator.services.submissions.get(signature)?.ledger?.err ?? null).toBeNull();
    expect(h.emulator.services.submissions.get(signature)?.status).toBe('processed');
  });
});
