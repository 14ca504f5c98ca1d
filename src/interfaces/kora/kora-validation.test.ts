import { Keypair, SystemProgram, type TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { createBurnInstruction, createTransferInstruction } from '@solana/spl-token';
import { describe, expect, it } from 'vitest';
import { defaultFeePayerPolicy, type ValidationConfig } from './kora-config.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import { validateForKora } from './kora-validation.ts';

const feePayer = Keypair.generate().publicKey;
const user = Keypair.generate().publicKey;
const [account, mint] = [Keypair.generate().publicKey, Keypair.generate().publicKey];
const config = (changes: Partial<ValidationConfig> = {}): ValidationConfig => ({
  max_allowed_lamports: 1_000,
  max_signatures: 2,
  allowed_programs: ['11111111111111111111111111111111', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
  allowed_tokens: [],
  allowed_spl_paid_tokens: 'All',
  disallowed_accounts: [],
  price_source: 'Mock',
  fee_payer_policy: defaultFeePayerPolicy(),
  price: { type: 'free' },
  token_2022: { blocked_mint_extensions: [], blocked_account_extensions: [] },
  allow_durable_transactions: false,
  ...changes,
});

/** A transaction as resolveKoraTransaction leaves it (no lookup tables, no inner instructions). */
function resolved(...instructions: TransactionInstruction[]) {
  const message = new TransactionMessage({ payerKey: feePayer, recentBlockhash: '11111111111111111111111111111111', instructions }).compileToLegacyMessage();
  const tx = new VersionedTransaction(message);
  const accountKeys = message.staticAccountKeys.map((key) => key.toBase58());
  return {
    tx,
    accountKeys,
    instructions: message.compiledInstructions.map((ix) => ({
      program: accountKeys[ix.programIdIndex]!,
      accounts: ix.accountKeyIndexes.map((index) => accountKeys[index]!),
      data: ix.data,
    })),
  };
}

// No case here has the fee payer move tokens, so nothing reads the ledger (test/kora.engines.test.ts does, on a real one).
const NO_LEDGER = {} as Ledger;

const refusal = async (transaction: ReturnType<typeof resolved>, validation = config()) => {
  try {
    await validateForKora(transaction, { ledger: NO_LEDGER, validation, feePayer: feePayer.toBase58(), paymentAddress: feePayer.toBase58() });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('validateForKora (Kora 2.0.5 transaction_validator.rs)', async () => {
  it('checks the fee payer’s roles by kind in Kora’s order, not in instruction order', async () => {
    const both = resolved(createBurnInstruction(account, mint, feePayer, 1n), SystemProgram.assign({ accountPubkey: feePayer, programId: mint }));
    expect(await refusal(both)).toBe("Invalid transaction: Fee payer cannot be used for 'System Assign'");
    const policy = defaultFeePayerPolicy();
    policy.system.allow_assign = true;
    expect(await refusal(both, config({ fee_payer_policy: policy }))).toBe("Invalid transaction: Fee payer cannot be used for 'SPL Token Burn'");
    policy.spl_token.allow_burn = true;
    expect(await refusal(both, config({ fee_payer_policy: policy }))).toBeNull();
  });

  it('lets the fee payer pay while others act, and adds up what it sends away less what comes back', async () => {
    expect(await refusal(resolved(createTransferInstruction(account, account, user, 5n)))).toBeNull();
    const policy = defaultFeePayerPolicy();
    policy.system.allow_transfer = true;
    const out = SystemProgram.transfer({ fromPubkey: feePayer, toPubkey: user, lamports: 1_500 });
    const back = SystemProgram.transfer({ fromPubkey: user, toPubkey: feePayer, lamports: 600 });
    expect(await refusal(resolved(out), config({ fee_payer_policy: policy }))).toBe(
      'Invalid transaction: Total transfer amount 1500 exceeds maximum allowed 1000',
    );
    expect(await refusal(resolved(out, back), config({ fee_payer_policy: policy }))).toBeNull();
  });

  it('refuses programs not allowed, disallowed accounts and too many signatures, in that order', async () => {
    const memo: TransactionInstruction = { programId: mint, keys: [{ pubkey: user, isSigner: true, isWritable: false }], data: Buffer.alloc(0) };
    expect(await refusal(resolved(memo))).toBe(`Invalid transaction: Program ${mint.toBase58()} is not in the allowed list`);
    expect(await refusal(resolved(createTransferInstruction(account, account, user, 5n)), config({ disallowed_accounts: [user.toBase58()] }))).toBe(
      `Invalid transaction: Account ${user.toBase58()} is disallowed`,
    );
    expect(await refusal(resolved(createTransferInstruction(account, account, user, 5n)), config({ max_signatures: 1 }))).toBe(
      'Invalid transaction: Too many signatures: 2 > 1',
    );
  });
});
