/**
 * History lists what landed in a block (spec 2.4, as getSignaturesForAddress does): a relayed
 * transaction that failed while executing paid its fee and is listed with its error; one that
 * failed before paying its fee (here: its fee payer gone by the time the queue submits it) never
 * reached a block and is not listed, though its submission reports the failure. The emulator
 * submits without preflight here (`skipPreflight`), so that a failing transaction lands at all
 * (test/relay-preflight.engines.test.ts: with it, such a one never lands).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { ALICE, build, FEE_PAYER, transferInstruction } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

describe('history lists what landed', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ skipPreflight: true });
  });
  afterAll(() => h.close());

  const send = async (amount: bigint, sender = ALICE) => {
    const signedTransaction = build({
      instructions: [transferInstruction(sender, sender.publicKey, amount)],
      signers: [sender],
      blockhash: await h.blockhash(),
    });
    const { status, body } = await h.call('POST', '/Transaction/send', { body: { signedTransaction } });
    expect(status, JSON.stringify(body)).toBe(200);
    return body.signature as string;
  };
  const history = async (wallet = ALICE.publicKey) => {
    const { status, body } = await h.call('POST', `/Account/gethistory?WalletAddress=${wallet.toBase58()}`);
    expect(status).toBe(200);
    return body.transactions as { signature: string; err: unknown }[];
  };

  it('lists a transaction that failed while executing, with its error', async () => {
    // A wallet with no token account: the transfer fails inside the token program, fee paid.
    const stranger = newKeypair();
    const signature = await send(1n, stranger);
    await h.emulator.settle();
    expect(h.emulator.services.submissions.get(signature)?.status).toBe('failed');
    const listed = (await history(stranger.publicKey)).find((entry) => entry.signature === signature);
    expect(listed?.err).toMatchObject({ InstructionError: [0, expect.anything()] });
  });

  it('does not list a transaction that failed before paying its fee', async () => {
    const feePayer = await h.emulator.getAccount(FEE_PAYER);
    h.emulator.pauseQueue();
    const signature = await send(2n);
    await h.emulator.setAccount(FEE_PAYER, { ...feePayer!, lamports: 0n });
    await h.emulator.stepQueue();
    await h.emulator.setAccount(FEE_PAYER, feePayer!);
    h.emulator.resumeQueue();
    const submission = h.emulator.services.submissions.get(signature);
    expect(submission?.status).toBe('failed');
    expect(submission?.ledger?.err).toBe('AccountNotFound');
    expect((await history()).map((entry) => entry.signature)).not.toContain(signature);
    // The next transfer lands and is listed as usual.
    const next = await send(3n);
    await h.emulator.settle();
    expect((await history()).map((entry) => entry.signature)).toContain(next);
  });
});
