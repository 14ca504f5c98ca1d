/**
 * Relayed transactions are simulated before they are submitted, as the real relays' RPC calls do
 * (`sendTransaction` without `skipPreflight`): one that can only fail never lands. It ends Failed
 * with the simulation's error and logs (its submission, the transaction journal, the legacy
 * record's errors), and the fee payer pays nothing. Option `skipPreflight` lands it as before: a
 * failure that costs the sponsor its fee.
 */
import { Connection } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { legacyTransfer } from './support/legacy-transactions.ts';
import { ALICE, build, FEE_PAYER, KIN, USDC, transferInstruction } from './support/transactions.ts';

/** More USDC than alice holds: the token program refuses it (InsufficientFunds, custom error 1). */
const TOO_MUCH = 10n ** 15n;

describe('preflight of relayed transactions', () => {
  let h: Harness;
  afterEach(() => h.close());

  const feePayerLamports = async () => (await h.emulator.services.ledger.getAccount(FEE_PAYER))!.lamports;
  const failingSend = async () => {
    const signedTransaction = build({
      instructions: [transferInstruction(ALICE, ALICE.publicKey, TOO_MUCH, { checked: true, mint: USDC, decimals: 6 })],
      blockhash: await h.blockhash(),
      signers: [ALICE],
    });
    const { status, body } = await h.call('POST', '/Transaction/send', { body: { signedTransaction } });
    expect(status, JSON.stringify(body)).toBe(200);
    return body.signature as string;
  };

  it('ends a relay that can only fail Failed, with the simulation’s error and logs, and charges nothing', async () => {
    h = await startHarness();
    const before = await feePayerLamports();
    const signature = await failingSend();
    await h.emulator.settle();
    expect(await feePayerLamports()).toBe(before);
    const submission = h.emulator.services.submissions.get(signature)!;
    expect(submission.status).toBe('failed');
    expect(submission.ledger).toMatchObject({ landed: false, fee: 0n, err: { InstructionError: [0, { Custom: 1 }] } });
    expect(submission.ledger!.logs.some((line) => line.startsWith('Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA failed'))).toBe(true);
    const [entry] = h.emulator.transactionJournal({ signature });
    expect(entry).toMatchObject({ status: 'failed', fee: 0, err: { InstructionError: [0, { Custom: 1 }] } });
    expect(entry!.logs).toEqual(submission.ledger!.logs);
    // Never in a block: getTransaction has nothing, the status keeps the error (confirmTransaction ends).
    const connection = new Connection(h.emulator.config.rpcUrl, 'confirmed');
    expect(await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })).toBeNull();
    expect((await connection.getSignatureStatus(signature)).value?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    const history = await h.call('POST', `/Account/gethistory?WalletAddress=${ALICE.publicKey.toBase58()}`);
    expect(history.body.transactions.map((tx: { signature: string }) => tx.signature)).not.toContain(signature);
  });

  it('puts the simulation’s error and logs in a legacy record’s errors, and charges nothing', async () => {
    h = await startHarness();
    const before = await feePayerLamports();
    const recent = (await h.call('GET', '/transaction/latest-blockhash/devnet/1', { anonymous: true })).body as {
      blockhash: string;
      lastValidBlockHeight: number;
    };
    const tx = legacyTransfer({ blockhash: recent.blockhash, memoIndex: 1, transfers: [{ from: ALICE, to: ALICE.publicKey, amount: TOO_MUCH }] });
    const { status, body: record } = await h.call('POST', '/transaction/make-transfer', {
      anonymous: true,
      body: { commitment: 'Confirmed', environment: 'devnet', index: 1, mint: KIN.toBase58(), lastValidBlockHeight: recent.lastValidBlockHeight, tx },
    });
    expect(status).toBe(201);
    expect(record.status).toBe('Failed');
    expect(record.errors).toHaveLength(1);
    expect(record.errors[0]).toMatchObject({ instruction: 1 });
    expect(record.errors[0].logs.some((line: string) => line.includes('failed'))).toBe(true);
    await h.emulator.settle();
    expect(await feePayerLamports()).toBe(before);
  });

  it('with skipPreflight, lands the same relay as a failure the fee payer pays for', async () => {
    h = await startHarness({ skipPreflight: true });
    const before = await feePayerLamports();
    const signature = await failingSend();
    await h.emulator.settle();
    const submission = h.emulator.services.submissions.get(signature)!;
    expect(submission.status).toBe('failed');
    expect(submission.ledger).toMatchObject({ landed: true, err: { InstructionError: [0, { Custom: 1 }] } });
    expect(submission.ledger!.fee).toBeGreaterThan(0n);
    expect(await feePayerLamports()).toBe(before - submission.ledger!.fee);
    expect(h.emulator.transactionJournal({ signature })[0]!.fee).toBe(Number(submission.ledger!.fee));
  });
});
