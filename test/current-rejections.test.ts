import { TransactionInstruction, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { ALICE, ata, build, closeInstruction, createAtaInstructions, FEE_PAYER, memoInstruction, transferInstruction } from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

/** Every refusal of the relay pipeline that issue 3 names: status, code, and nothing queued. */
describe('relay refusals', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  async function expectRefused(path: string, signedTransaction: string, status: number, code: string) {
    const before = h.emulator.services.submissions.all().length;
    const response = await h.call('POST', path, { body: { signedTransaction } });
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.code).toBe(code);
    expect(response.body.detail).toEqual(expect.any(String));
    expect(h.emulator.services.submissions.all().length).toBe(before);
    return response.body;
  }

  it('400 INVALID_BASE64 for input that is not base64', async () => {
    await expectRefused('/Transaction/send', 'not base64!!', 400, 'INVALID_BASE64');
    await expectRefused('/Transaction/send', 'QUJD', 400, 'INVALID_TRANSACTION');
  });

  it('400 INVALID_TRANSACTION for base64 that is not a transaction, or has trailing bytes', async () => {
    await expectRefused('/Transaction/send', Buffer.from('hello relay, not a transaction').toString('base64'), 400, 'INVALID_TRANSACTION');
    const valid = Buffer.from(
      build({ instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n)], blockhash: await h.blockhash(), signers: [ALICE] }),
      'base64',
    );
    await expectRefused('/Transaction/send', Buffer.concat([valid, Buffer.from([1, 2, 3])]).toString('base64'), 400, 'INVALID_TRANSACTION');
  });

  it('422 WRONG_FEE_PAYER when the fee payer is not the published FeePayer', async () => {
    const body = await expectRefused(
      '/Transaction/send',
      build({
        instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n)],
        blockhash: await h.blockhash(),
        signers: [ALICE],
        feePayer: ALICE.publicKey,
      }),
      422,
      'WRONG_FEE_PAYER',
    );
    expect(body.detail).toContain(FEE_PAYER.toBase58());
  });

  it('422 BLOCKHASH_NOT_FOUND for an expired or unknown blockhash', async () => {
    const stale = await h.blockhash();
    await h.emulator.services.ledger.expireBlockhashes();
    await expectRefused(
      '/Transaction/send',
      build({ instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n)], blockhash: stale, signers: [ALICE] }),
      422,
      'BLOCKHASH_NOT_FOUND',
    );
    await expectRefused(
      '/Transaction/send',
      build({ instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n)], blockhash: newKeypair().publicKey.toBase58(), signers: [ALICE] }),
      422,
      'BLOCKHASH_NOT_FOUND',
    );
  });

  it('accepts a blockhash 150 blocks old and refuses it at 151 with BLOCKHASH_NOT_FOUND (lastValidBlockHeight = issued + 150)', async () => {
    const { emulator } = h;
    await emulator.expireBlockhash(); // so that the next blockhash is handed out now
    const issuedAt = emulator.clock().blockHeight;
    const { body: recent } = await h.call('GET', '/Transaction/blockhash');
    expect(recent.LastValidBlockHeight).toBe(issuedAt + 150);
    const transfer = () => build({ instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n)], blockhash: recent.Blockhash, signers: [ALICE] });
    const [atAge150, atAge151] = [transfer(), transfer()];
    // Held in the queue: only the warps below move the block height.
    emulator.pauseQueue();
    try {
      expect((await emulator.warp({ slots: 150 })).blockHeight).toBe(issuedAt + 150);
      const accepted = await h.call('POST', '/Transaction/send', { body: { signedTransaction: atAge150 } });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      expect((await emulator.warp({ slots: 1 })).blockHeight).toBe(issuedAt + 151);
      await expectRefused('/Transaction/send', atAge151, 422, 'BLOCKHASH_NOT_FOUND');
    } finally {
      emulator.resumeQueue();
      await emulator.settle();
    }
  });

  it('422 SIGNATURE_MISSING when a required client signature is absent', async () => {
    await expectRefused(
      '/Transaction/send',
      build({ instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n)], blockhash: await h.blockhash(), signers: [] }),
      422,
      'SIGNATURE_MISSING',
    );
  });

  it('422 SIGNATURE_INVALID when a client signature does not verify', async () => {
    const bytes = Buffer.from(
      build({ instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n)], blockhash: await h.blockhash(), signers: [ALICE] }),
      'base64',
    );
    const tx = VersionedTransaction.deserialize(bytes);
    tx.signatures[1]![10]! ^= 0xff;
    await expectRefused('/Transaction/send', Buffer.from(tx.serialize()).toString('base64'), 422, 'SIGNATURE_INVALID');
  });

  it('422 OPERATION_MISMATCH when the instructions belong to another operation', async () => {
    const transfer = build({ instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n)], blockhash: await h.blockhash(), signers: [ALICE] });
    await expectRefused('/Account/create', transfer, 422, 'OPERATION_MISMATCH');
    await expectRefused('/Account/close', transfer, 422, 'OPERATION_MISMATCH');
    // (A creation posted to Transaction/send is relayed by the default faithful profile: test/policy-profiles.engines.test.ts.)
    const owner = newKeypair();
    await expectRefused(
      '/Account/close',
      build({ instructions: createAtaInstructions(owner.publicKey), blockhash: await h.blockhash(), signers: [owner] }),
      422,
      'OPERATION_MISMATCH',
    );
  });

  it('422 NO_OPERATION for a transaction that only carries a memo', async () => {
    await expectRefused(
      '/Account/create',
      build({ instructions: [memoInstruction('hello', [ALICE.publicKey])], blockhash: await h.blockhash(), signers: [ALICE] }),
      422,
      'NO_OPERATION',
    );
  });

  it('422 CLOSE_AUTHORITY_NOT_FEE_PAYER when a created account keeps its owner as close authority', async () => {
    const owner = newKeypair();
    const [createOnly] = createAtaInstructions(owner.publicKey);
    await expectRefused(
      '/Account/create',
      build({ instructions: [createOnly!], blockhash: await h.blockhash(), signers: [] }),
      422,
      'CLOSE_AUTHORITY_NOT_FEE_PAYER',
    );
  });

  it('422 CLOSE_AUTHORITY_NOT_FEE_PAYER for closing an account whose on-ledger close authority is not the fee payer', async () => {
    await expectRefused(
      '/Account/close',
      build({ instructions: [closeInstruction(ata(ALICE.publicKey))], blockhash: await h.blockhash(), signers: [] }),
      422,
      'CLOSE_AUTHORITY_NOT_FEE_PAYER',
    );
  });

  it('422 CLOSE_DESTINATION_NOT_FEE_PAYER for a close that sends the rent elsewhere', async () => {
    await expectRefused(
      '/Account/close',
      build({ instructions: [closeInstruction(ata(ALICE.publicKey), { destination: ALICE.publicKey })], blockhash: await h.blockhash(), signers: [] }),
      422,
      'CLOSE_DESTINATION_NOT_FEE_PAYER',
    );
  });

  it('422 FEE_PAYER_MISUSE for a transfer authorised by the fee payer', async () => {
    await expectRefused(
      '/Transaction/send',
      build({ instructions: [transferInstruction(FEE_PAYER, ALICE.publicKey, 1n)], blockhash: await h.blockhash(), signers: [] }),
      422,
      'FEE_PAYER_MISUSE',
    );
  });

  it('422 PROGRAM_NOT_ALLOWED for an unknown program', async () => {
    const rogue = new TransactionInstruction({
      programId: newKeypair().publicKey,
      keys: [{ pubkey: ALICE.publicKey, isSigner: true, isWritable: false }],
      data: Buffer.from([1]),
    });
    await expectRefused(
      '/Transaction/send',
      build({ instructions: [transferInstruction(ALICE, newKeypair().publicKey, 1n), rogue], blockhash: await h.blockhash(), signers: [ALICE] }),
      422,
      'PROGRAM_NOT_ALLOWED',
    );
  });

  it('422 ALREADY_PROCESSED when a relayed transaction is replayed to another operation', async () => {
    const recipient = newKeypair();
    const signed = build({
      instructions: [...createAtaInstructions(recipient.publicKey), transferInstruction(ALICE, recipient.publicKey, 1n)],
      blockhash: await h.blockhash(),
      signers: [ALICE, recipient],
    });
    expect((await h.call('POST', '/Transaction/send', { body: { signedTransaction: signed } })).status).toBe(200);
    await expectRefused('/Transaction/sendbatch', signed, 422, 'ALREADY_PROCESSED');
    await h.emulator.settle();
  });

  it('400 VALIDATION_FAILED when signedTransaction is missing or not a string', async () => {
    for (const body of [{}, { signedTransaction: 42 }, [], 'text']) {
      const response = await h.call('POST', '/Account/create', { body });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });
});
