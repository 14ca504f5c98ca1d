/**
 * Kora's Token-2022 rules for payments (issue 27; token.rs, fee.rs): `[validation.token_2022]`
 * blocks mint and account extensions on a payment's mint, source and destination, and a payment's
 * transfer fee is added to what Kora charges. The mint, its transfer fee and the required-memo
 * account are made by the Token-2022 program itself on the ledger.
 */
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createEnableRequiredMemoTransfersInstruction,
  createInitializeMintInstruction,
  createInitializeTransferFeeConfigInstruction,
  createMintToInstruction,
  createReallocateInstruction,
  createTransferCheckedInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token';
import { Connection, Keypair, LAMPORTS_PER_SOL, type PublicKey, sendAndConfirmTransaction, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { koraCaller, koraToml, SYSTEM_PROGRAM } from './support/kora.ts';
import { build, FEE_PAYER } from './support/transactions.ts';

const mint = Keypair.generate();
const [payer, owner, memoOwner] = [Keypair.generate(), Keypair.generate(), Keypair.generate()];
const ata2022 = (wallet: PublicKey) => getAssociatedTokenAddressSync(mint.publicKey, wallet, true, TOKEN_2022_PROGRAM_ID);

/** An emulator with the mint (6 decimals, 0.5% transfer fee up to 5,000), the owners' funded accounts and the fee payer's. */
async function start(blocked: string[]): Promise<{ emulator: RelayEmulator; call: (method: string, params: unknown) => Promise<any> }> {
  const config = koraToml({
    programs: [SYSTEM_PROGRAM, TOKEN_2022_PROGRAM_ID.toBase58()],
    tokens: [mint.publicKey.toBase58()],
    price: ['type = "margin"', 'margin = 0.0'],
    tables: ['[validation.token_2022]', ...blocked],
  });
  const emulator = await createRelayEmulator({ kora: { config } });
  const connection = new Connection(emulator.config.rpcUrl, 'confirmed');
  for (const wallet of [payer, owner, memoOwner]) await emulator.faucet({ address: wallet.publicKey.toBase58(), lamports: LAMPORTS_PER_SOL });
  const space = getMintLen([ExtensionType.TransferFeeConfig]);
  await sendAndConfirmTransaction(
    connection,
    new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: mint.publicKey,
        space,
        lamports: await connection.getMinimumBalanceForRentExemption(space),
        programId: TOKEN_2022_PROGRAM_ID,
      }),
      createInitializeTransferFeeConfigInstruction(mint.publicKey, payer.publicKey, null, 50, 5_000n, TOKEN_2022_PROGRAM_ID),
      createInitializeMintInstruction(mint.publicKey, 6, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
      ...[owner.publicKey, memoOwner.publicKey, FEE_PAYER].map((wallet) =>
        createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata2022(wallet), wallet, mint.publicKey, TOKEN_2022_PROGRAM_ID),
      ),
      ...[owner.publicKey, memoOwner.publicKey].map((wallet) =>
        createMintToInstruction(mint.publicKey, ata2022(wallet), payer.publicKey, 1_000_000n, [], TOKEN_2022_PROGRAM_ID),
      ),
      createReallocateInstruction(ata2022(memoOwner.publicKey), payer.publicKey, [ExtensionType.MemoTransfer], memoOwner.publicKey, [], TOKEN_2022_PROGRAM_ID),
      createEnableRequiredMemoTransfersInstruction(ata2022(memoOwner.publicKey), memoOwner.publicKey, [], TOKEN_2022_PROGRAM_ID),
    ),
    [payer, mint, memoOwner],
  );
  const caller = koraCaller(emulator.config.koraUrl);
  const call = (method: string, params: unknown) => caller(method, params);
  return { emulator, call };
}

/** A payment to the fee payer's account from `from`, paid by Kora. */
async function payment(call: (method: string, params: unknown) => Promise<any>, from: Keypair, amount: bigint): Promise<string> {
  const { blockhash } = (await call('getBlockhash', {})).result;
  const transfer = createTransferCheckedInstruction(
    ata2022(from.publicKey),
    mint.publicKey,
    ata2022(FEE_PAYER),
    from.publicKey,
    amount,
    6,
    [],
    TOKEN_2022_PROGRAM_ID,
  );
  return build({ instructions: [transfer], blockhash, signers: [from] });
}

describe('Kora and Token-2022 payments', () => {
  const emulators: RelayEmulator[] = [];
  afterAll(() => Promise.all(emulators.map((emulator) => emulator.close())));

  it('adds a payment’s transfer fee to the fee, takes the payment, and refuses a source with a blocked extension', async () => {
    const { emulator, call } = await start(['blocked_account_extensions = ["memo_transfer"]']);
    emulators.push(emulator);
    // Two signatures (10,000 lamports) and the payment's transfer fee: 0.5% of 100,000 base units, 500 (added as Kora adds it).
    const paid = await payment(call, owner, 100_000n);
    expect((await call('estimateTransactionFee', { transaction: paid })).result).toMatchObject({ fee_in_lamports: 10_500 });
    const before = (await emulator.getAccount(FEE_PAYER))!.lamports;
    const sent = (await call('signAndSendTransaction', { transaction: paid })).result;
    await emulator.settle();
    expect(emulator.services.submissions.get(sent.signature)).toMatchObject({ status: 'processed' });
    expect((await emulator.getAccount(FEE_PAYER))!.lamports).toBe(before - 10_000n);
    expect(Buffer.from((await emulator.getAccount(ata2022(FEE_PAYER)))!.data).readBigUInt64LE(64)).toBe(99_500n);

    expect((await call('signTransaction', { transaction: await payment(call, memoOwner, 100_000n) })).error).toEqual({
      code: -32000,
      message: `Validation error: Blocked account extension found on source account ${ata2022(memoOwner.publicKey).toBase58()}`,
    });
    expect(emulator.requestJournal({ path: '/kora' }).at(-1)!.problem).toEqual({
      code: 'ValidationError',
      rule: 'validation.token_2022.blocked_account_extensions',
    });
  });

  it('refuses a payment in a mint with a blocked extension, and the fee payer pays nothing', async () => {
    const { emulator, call } = await start(['blocked_mint_extensions = ["transfer_fee_config"]']);
    emulators.push(emulator);
    const before = (await emulator.getAccount(FEE_PAYER))!.lamports;
    expect((await call('signAndSendTransaction', { transaction: await payment(call, owner, 100_000n) })).error?.message).toBe(
      `Validation error: Blocked mint extension found on mint account ${mint.publicKey.toBase58()}`,
    );
    await emulator.settle();
    expect((await emulator.getAccount(FEE_PAYER))!.lamports).toBe(before);
  });
});
