import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTokenAccount } from '../src/domain/ledger/token-accounts.ts';
import { startHarness, type Harness } from './support/harness.ts';
import {
  ALICE,
  ata,
  build,
  closeInstruction,
  createAtaInstructions,
  createPlainAccountInstructions,
  FEE_PAYER,
  transferInstruction,
  USDC,
} from './support/transactions.ts';
import { newKeypair } from './support/keys.ts';

describe('relaying create → send → close through MSW', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const tokenState = async (address: PublicKey) => decodeTokenAccount(await h.emulator.services.ledger.getAccount(address));
  const lamportsOf = async (address: PublicKey) => (await h.emulator.services.ledger.getAccount(address))?.lamports ?? 0n;
  const relay = async (path: string, signedTransaction: string) => {
    const response = await h.call('POST', path, { body: { signedTransaction } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };

  it('creates an account, receives and sends tokens, and closes it, with the rent back to the fee payer', async () => {
    const owner = newKeypair();
    const account = ata(owner.publicKey);
    const feePayerBefore = await lamportsOf(FEE_PAYER);

    // Answered before submission, whatever the engine's speed: the job still waits when the answer is made.
    const waitingAtAnswer: number[] = [];
    const stop = h.emulator.observe(({ operationId }) => {
      if (operationId === 'createAccount') waitingAtAnswer.push(h.emulator.queueState().pending);
    });
    const created = await relay(
      '/Account/create',
      build({ instructions: createAtaInstructions(owner.publicKey), blockhash: await h.blockhash(), signers: [owner] }),
    );
    stop();
    expect(created).toEqual({
      status: 'Queued',
      message: 'Account creation transaction queued successfully.',
      signature: expect.any(String),
      Status: 'Queued',
      Message: 'Account creation transaction queued successfully.',
      Signature: created.signature,
    });
    expect(waitingAtAnswer).toEqual([1]);
    await h.emulator.settle();
    expect(await tokenState(account)).toMatchObject({
      owner: owner.publicKey.toBase58(),
      mint: USDC.toBase58(),
      amount: 0n,
      closeAuthority: FEE_PAYER.toBase58(),
    });

    const sent = await relay(
      '/Transaction/send',
      build({ instructions: [transferInstruction(ALICE, owner.publicKey, 2_500_000n)], blockhash: await h.blockhash(), signers: [ALICE] }),
    );
    expect(sent.message).toBe('Transaction sent successfully');
    await h.emulator.settle();
    expect((await tokenState(account))?.amount).toBe(2_500_000n);

    await relay(
      '/Transaction/send',
      build({ instructions: [transferInstruction(owner, ALICE.publicKey, 2_500_000n, { checked: true })], blockhash: await h.blockhash(), signers: [owner] }),
    );
    await h.emulator.settle();
    expect((await tokenState(account))?.amount).toBe(0n);

    const closed = await relay('/Account/close', build({ instructions: [closeInstruction(account)], blockhash: await h.blockhash(), signers: [] }));
    expect(closed.message).toBe('Account close transaction queued successfully.');
    await h.emulator.settle();
    expect(await h.emulator.services.ledger.getAccount(account)).toBeNull();
    // The fee payer paid 5000 per signature (2 + 2 + 2 + 1) and got the rent of the account back.
    expect(await lamportsOf(FEE_PAYER)).toBe(feePayerBefore - 7n * 5000n);

    const statuses = [created, sent, closed].map((receipt) => h.emulator.services.submissions.get(receipt.signature)?.status);
    expect(statuses).toEqual(['processed', 'processed', 'processed']);
  });

  it('reports the receipt signature as the fee-payer signature the ledger records', async () => {
    const owner = newKeypair();
    const receipt = await relay(
      '/Account/create',
      build({ instructions: createAtaInstructions(owner.publicKey, USDC, { idempotent: true }), blockhash: await h.blockhash(), signers: [owner] }),
    );
    await h.emulator.settle();
    const record = h.emulator.services.submissions.get(receipt.signature)!;
    expect(record.ledger?.signature).toBe(receipt.signature);
    expect(record.ledger?.err).toBeNull();
    expect((await tokenState(ata(owner.publicKey)))?.closeAuthority).toBe(FEE_PAYER.toBase58());
  });

  it('creates plain token accounts (createAccount + InitializeAccount3) with the close authority handed over', async () => {
    const owner = newKeypair();
    const account = newKeypair();
    await relay(
      '/Account/create',
      build({ instructions: createPlainAccountInstructions(owner.publicKey, account), blockhash: await h.blockhash(), signers: [owner, account] }),
    );
    await h.emulator.settle();
    const state = await h.emulator.services.ledger.getAccount(account.publicKey);
    expect(state?.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(decodeTokenAccount(state)).toMatchObject({ owner: owner.publicKey.toBase58(), closeAuthority: FEE_PAYER.toBase58() });
  });

  it('sends with the destination account created in the same transaction (spec 4.2 transfer example)', async () => {
    const recipient = newKeypair();
    const instructions = [...createAtaInstructions(recipient.publicKey), transferInstruction(ALICE, recipient.publicKey, 1_000n)];
    await relay('/Transaction/send', build({ instructions, blockhash: await h.blockhash(), signers: [ALICE, recipient] }));
    await h.emulator.settle();
    expect(await tokenState(ata(recipient.publicKey))).toMatchObject({ amount: 1_000n, closeAuthority: FEE_PAYER.toBase58() });
  });

  it('relays a batch with the receipt plus success and signatures', async () => {
    const [first, second] = [newKeypair(), newKeypair()];
    const instructions = [
      ...createAtaInstructions(first.publicKey),
      ...createAtaInstructions(second.publicKey),
      transferInstruction(ALICE, first.publicKey, 10n),
      transferInstruction(ALICE, second.publicKey, 20n, { checked: true }),
    ];
    const { status, body } = await h.call('POST', '/Transaction/sendbatch', {
      body: { signedTransaction: build({ instructions, blockhash: await h.blockhash(), signers: [ALICE, first, second] }) },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'Queued',
      message: 'Transaction sent successfully',
      signature: expect.any(String),
      Status: 'Queued',
      Message: 'Transaction sent successfully',
      Signature: body.signature,
      success: true,
      signatures: [body.signature],
    });
    await h.emulator.settle();
    expect((await tokenState(ata(first.publicKey)))?.amount).toBe(10n);
    expect((await tokenState(ata(second.publicKey)))?.amount).toBe(20n);
  });

  it('binds the PascalCase SignedTransaction key as the real service does', async () => {
    const recipient = newKeypair();
    const signedTransaction = build({
      instructions: [...createAtaInstructions(recipient.publicKey), transferInstruction(ALICE, recipient.publicKey, 7n)],
      blockhash: await h.blockhash(),
      signers: [ALICE, recipient],
    });
    const { status, body } = await h.call('POST', '/transaction/send', { body: { SignedTransaction: signedTransaction } });
    expect(status).toBe(200);
    expect(body.status).toBe('Queued');
    await h.emulator.settle();
    expect((await tokenState(ata(recipient.publicKey)))?.amount).toBe(7n);
  });

  it('answers an identical resubmission with the original receipt and submits it once', async () => {
    const recipient = newKeypair();
    const signedTransaction = build({
      instructions: [...createAtaInstructions(recipient.publicKey), transferInstruction(ALICE, recipient.publicKey, 11n)],
      blockhash: await h.blockhash(),
      signers: [ALICE, recipient],
    });
    const first = await relay('/Transaction/send', signedTransaction);
    const again = await relay('/Transaction/send', signedTransaction);
    expect(again).toEqual(first);
    await h.emulator.settle();
    const afterSettle = await relay('/Transaction/send', signedTransaction);
    expect(afterSettle).toEqual(first);
    await h.emulator.settle();
    expect((await tokenState(ata(recipient.publicKey)))?.amount).toBe(11n);
    expect(h.emulator.services.submissions.all().filter((record) => record.signature === first.signature)).toHaveLength(1);
  });

  it('queues identical copies sent at once only once: every copy gets the receipt, the ledger moves once', async () => {
    const recipient = newKeypair();
    const signedTransaction = build({
      instructions: [...createAtaInstructions(recipient.publicKey), transferInstruction(ALICE, recipient.publicKey, 13n)],
      blockhash: await h.blockhash(),
      signers: [ALICE, recipient],
    });
    // Each copy awaits the ledger in its checks, so all pass the first look-up before any is recorded.
    const copies = await Promise.all(Array.from({ length: 6 }, () => relay('/Transaction/send', signedTransaction)));
    expect(new Set(copies.map((copy) => copy.signature)).size).toBe(1);
    await h.emulator.settle();
    const record = h.emulator.services.submissions.get(copies[0].signature)!;
    expect([record.status, record.ledger?.err]).toEqual(['processed', null]);
    expect((await tokenState(ata(recipient.publicKey)))?.amount).toBe(13n);
    expect(h.emulator.transactionJournal({ signature: copies[0].signature })).toHaveLength(1);
    // A copy sent at once to another operation is refused as a replay, not queued.
    const other = build({ instructions: [transferInstruction(ALICE, recipient.publicKey, 17n)], blockhash: await h.blockhash(), signers: [ALICE] });
    const answers = await Promise.all(
      ['/Transaction/send', '/Transaction/sendbatch'].map((path) => h.call('POST', path, { body: { signedTransaction: other } })),
    );
    expect(answers.map((answer) => [answer.status, answer.body.code]).sort()).toEqual([
      [200, undefined],
      [422, 'ALREADY_PROCESSED'],
    ]);
    await h.emulator.settle();
    expect((await tokenState(ata(recipient.publicKey)))?.amount).toBe(30n);
  });

  it('queues a transaction that can only fail, and reports the failure with the simulation’s logs: it never landed', async () => {
    const recipient = newKeypair();
    const tooMuch = 10n ** 15n;
    const receipt = await relay(
      '/Transaction/send',
      build({
        instructions: [...createAtaInstructions(recipient.publicKey), transferInstruction(ALICE, recipient.publicKey, tooMuch)],
        blockhash: await h.blockhash(),
        signers: [ALICE, recipient],
      }),
    );
    await h.emulator.settle();
    const record = h.emulator.services.submissions.get(receipt.signature)!;
    expect(record.status).toBe('failed');
    expect(record.ledger?.err).toEqual({ InstructionError: [2, { Custom: 1 }] });
    expect(record.ledger?.logs.join('\n')).toContain('insufficient funds');
    // Refused by preflight, as the real relays' RPC calls refuse it: no block, no history.
    expect(record.ledger?.landed).toBe(false);
    const history = await h.call('POST', `/Account/gethistory?WalletAddress=${recipient.publicKey.toBase58()}`);
    expect(history.body.transactions).toEqual([]);
  });

  it('serves the same core through emulator.fetch without MSW', async () => {
    const response = await h.emulator.fetch(
      new Request(`${h.emulator.config.baseUrl}/Account/getaccountinfo`, {
        method: 'POST',
        headers: { 'X-API-Key': h.emulator.config.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ accountAddress: ata(ALICE.publicKey).toBase58() }),
      }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).accountInfo.owner).toBe(TOKEN_PROGRAM_ID.toBase58());
  });
});
