/**
 * reset() takes the ledger back to its fixtures, and with it every transaction it ran: none is
 * remembered by the runtime either. A transaction that ran before the reset runs again after it,
 * as on a new ledger, on every engine. bankrun's own status cache outlives a reset (it cannot be
 * cleared), so the emulator's records alone refuse replays.
 *
 * This is also what kept createMint from failing after a reset: the mint counter starts again, so
 * the same request builds the same transaction, and when bankrun's blockhash had not ticked in
 * between, its signature was one bankrun had run, and it answered AlreadyProcessed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { ALICE, build, FEE_PAYER, transferInstruction } from './support/transactions.ts';

describe('a transaction that ran before reset()', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  /** The fee payer pays the fee (two signatures: 10,000 lamports) of each run: its balance counts the runs. */
  const feePayerLamports = async () => (await h.emulator.getAccount(FEE_PAYER))!.lamports;
  const relay = async (signedTransaction: string) => {
    const { status, body } = await h.call('POST', '/Transaction/send', { body: { signedTransaction } });
    expect(status, JSON.stringify(body)).toBe(200);
    await h.emulator.settle();
    return h.emulator.services.submissions.get(body.signature as string)!;
  };

  it('runs again after it, as on a new ledger, and once only', async () => {
    const signedTransaction = build({ instructions: [transferInstruction(ALICE, ALICE.publicKey, 7n)], signers: [ALICE], blockhash: await h.blockhash() });
    const first = await relay(signedTransaction);
    expect(first.ledger?.err ?? null).toBeNull();

    await h.emulator.reset();
    const genesis = await feePayerLamports();
    expect(h.emulator.services.submissions.get(first.signature)).toBeUndefined();
    const again = await relay(signedTransaction);
    expect(again.signature).toBe(first.signature);
    expect(again.status).toBe('processed');
    expect(again.ledger?.err ?? null).toBeNull();
    expect(h.emulator.transactionJournal().map((entry) => entry.signature)).toEqual([first.signature]);
    expect(await feePayerLamports()).toBe(genesis - 10_000n);

    // Sent once more: the records know it again, and it does not run twice.
    expect((await relay(signedTransaction)).signature).toBe(first.signature);
    expect(h.emulator.transactionJournal()).toHaveLength(1);
    expect(await feePayerLamports()).toBe(genesis - 10_000n);
  });

  it('makes createMint answer the same mint after a reset, however soon', async () => {
    const made: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      await h.emulator.reset();
      made.push((await h.emulator.createMint({ decimals: 1, symbol: '' })).mint);
    }
    expect(new Set(made).size).toBe(1);
  });
});
