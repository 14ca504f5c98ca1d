/**
 * A forged client signature is refused on every path a transaction takes to the ledger (issue 36):
 * the relay verifies it (and the engine need not again), the RPC's sendTransaction and Kora verify
 * before anything is queued. Each forged transaction is otherwise valid: signed, then one byte of
 * the client's signature flipped. Nothing it would do happens.
 */
import { Keypair, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { legacyTransfer } from './support/legacy-transactions.ts';
import { rpcAt } from './support/json-rpc.ts';
import { koraCaller } from './support/kora.ts';
import { ALICE, BOB, build, KIN, transferInstruction, USDC } from './support/transactions.ts';

/** The base64 transaction with byte `at` of signature `index` flipped. */
function forge(base64: string, index: number): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  const signature = tx.signatures[index]!;
  signature[10] = signature[10]! ^ 0xff;
  return Buffer.from(tx.serialize()).toString('base64');
}

describe('a forged client signature', () => {
  let h: Harness;
  const lamports = async (address: string) => (await h.emulator.getAccount(address))?.lamports ?? 0n;

  beforeAll(async () => {
    h = await startHarness();
    await h.emulator.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
    // Alice holds tokens, not SOL: the transfers below move some of hers.
    await h.emulator.faucet({ address: ALICE.publicKey.toBase58(), lamports: 1_000_000_000 });
  });
  afterAll(() => h.close());

  it('is refused by the current interface’s relay (Transaction/send), and nothing is sent', async () => {
    const recipient = Keypair.generate().publicKey;
    const signed = build({
      instructions: [SystemProgram.transfer({ fromPubkey: ALICE.publicKey, toPubkey: recipient, lamports: 5_000_000 })],
      blockhash: await h.blockhash(),
      signers: [ALICE],
    });
    // Signature 0 is the fee payer's (empty until the relay signs); the client's is 1.
    const { status, body } = await h.call('POST', '/Transaction/send', { body: { signedTransaction: forge(signed, 1) } });
    expect(status).toBe(422);
    expect(body.code).toBe('SIGNATURE_INVALID');
    await h.emulator.settle();
    expect(await lamports(recipient.toBase58())).toBe(0n);
    // The same transaction, not forged, is relayed: the refusal was the signature's.
    const sent = await h.call('POST', '/Transaction/send', { body: { signedTransaction: signed } });
    expect(sent.status).toBe(200);
    await h.emulator.settle();
    expect(await lamports(recipient.toBase58())).toBe(5_000_000n);
  });

  it('is refused by the legacy interface’s relay (make-transfer)', async () => {
    const recipient = Keypair.generate();
    const { body: recent } = await h.call('GET', '/transaction/latest-blockhash/devnet/1', { anonymous: true });
    const tx = legacyTransfer({ blockhash: recent.blockhash, transfers: [{ from: ALICE, to: recipient.publicKey, amount: 1_000n, create: recipient }] });
    const { status, body } = await h.call('POST', '/transaction/make-transfer', {
      anonymous: true,
      body: {
        commitment: 'Confirmed',
        environment: 'devnet',
        index: 1,
        mint: KIN.toBase58(),
        lastValidBlockHeight: recent.lastValidBlockHeight,
        tx: forge(tx, 1),
      },
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(body)).toMatch(/signature/i);
    await h.emulator.settle();
    expect(await h.emulator.getAccount(recipient.publicKey.toBase58())).toBeNull();
  });

  it('is refused by the RPC’s sendTransaction, and nothing is sent', async () => {
    const rpc = rpcAt(h.emulator.config.rpcUrl);
    const recipient = Keypair.generate().publicKey;
    const tx = new Transaction({ feePayer: ALICE.publicKey, blockhash: await h.blockhash(), lastValidBlockHeight: 0 }).add(
      SystemProgram.transfer({ fromPubkey: ALICE.publicKey, toPubkey: recipient, lamports: 3_000_000 }),
    );
    tx.sign(ALICE);
    const forged = forge(tx.serialize().toString('base64'), 0);
    await expect(rpc('sendTransaction', [forged, { encoding: 'base64' }])).rejects.toThrow(/Transaction did not pass signature verification/);
    await h.emulator.settle();
    expect(await lamports(recipient.toBase58())).toBe(0n);
  });

  it('is refused by Kora’s signAndSendTransaction, and nothing is sent', async () => {
    const kora = koraCaller(h.emulator.config.koraUrl);
    const { result } = await kora('getBlockhash');
    const transaction = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1_000n)], blockhash: result.blockhash, signers: [ALICE] });
    const before = h.emulator.services.submissions.all().length;
    const { error } = await kora('signAndSendTransaction', { transaction: forge(transaction, 1) });
    expect(error?.code).toBe(-32000);
    expect(error?.message).toMatch(/signature/i);
    await h.emulator.settle();
    expect(h.emulator.services.submissions.all().length).toBe(before);
  });
});
