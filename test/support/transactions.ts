/**
 * Builds transactions exactly as a client of the relay does (spec 4.2), with the @solana/web3.js
 * and @solana/spl-token instruction builders: fee payer = FeePayer, recent blockhash, partial sign.
 */
import {
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createAssociatedTokenAccountInstruction,
  createCloseAccountInstruction,
  createInitializeAccount3Instruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';
import { loadFixtures } from '../../src/domain/fixtures/load-fixtures.ts';
import { rentExemptMinimum } from '../../src/domain/ledger/rent.ts';

const fixtures = loadFixtures();
export const FEE_PAYER = new PublicKey(fixtures.relay.feePayer.publicKey);
export const USDC = new PublicKey(fixtures.mints.find((mint) => mint.symbol === 'USDC')!.address);
export const KIN = new PublicKey(fixtures.mints.find((mint) => mint.symbol === 'KIN')!.address);
export const ALICE = Keypair.fromSecretKey(bs58.decode(fixtures.wallets.find((wallet) => wallet.name === 'alice')!.secretKey!));
export const BOB = Keypair.fromSecretKey(bs58.decode(fixtures.wallets.find((wallet) => wallet.name === 'bob')!.secretKey!));

export function ata(owner: PublicKey, mint: PublicKey = USDC): PublicKey {
  return getAssociatedTokenAddressSync(mint, owner, true);
}

/** A transaction paid by `feePayer`, partially signed by `signers`, as base64. */
export function build(options: { instructions: TransactionInstruction[]; blockhash: string; signers: Keypair[]; feePayer?: PublicKey }): string {
  const tx = new Transaction({ feePayer: options.feePayer ?? FEE_PAYER, blockhash: options.blockhash, lastValidBlockHeight: 0 });
  tx.add(...options.instructions);
  if (options.signers.length > 0) tx.partialSign(...options.signers);
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
}

/** Spec 4.2 account creation: create the owner's ATA paid by the fee payer, then hand the close authority to the fee payer. */
export function createAtaInstructions(
  owner: PublicKey,
  mint: PublicKey = USDC,
  options: { idempotent?: boolean; feePayer?: PublicKey } = {},
): TransactionInstruction[] {
  const feePayer = options.feePayer ?? FEE_PAYER;
  const account = ata(owner, mint);
  const create = options.idempotent ? createAssociatedTokenAccountIdempotentInstruction : createAssociatedTokenAccountInstruction;
  return [create(feePayer, account, owner, mint), createSetAuthorityInstruction(account, owner, AuthorityType.CloseAccount, feePayer)];
}

/** The plain-account creation form: createAccount from the fee payer, InitializeAccount3, close authority to the fee payer. */
export function createPlainAccountInstructions(owner: PublicKey, account: Keypair, mint: PublicKey = USDC): TransactionInstruction[] {
  return [
    SystemProgram.createAccount({
      fromPubkey: FEE_PAYER,
      newAccountPubkey: account.publicKey,
      lamports: Number(rentExemptMinimum(ACCOUNT_SIZE)),
      space: ACCOUNT_SIZE,
      programId: TOKEN_PROGRAM_ID,
    }),
    createInitializeAccount3Instruction(account.publicKey, mint, owner),
    createSetAuthorityInstruction(account.publicKey, owner, AuthorityType.CloseAccount, FEE_PAYER),
  ];
}

export function transferInstruction(
  from: Keypair | PublicKey,
  to: PublicKey,
  amount: bigint,
  options: { checked?: boolean; mint?: PublicKey; decimals?: number } = {},
): TransactionInstruction {
  const owner = from instanceof Keypair ? from.publicKey : from;
  const mint = options.mint ?? USDC;
  if (options.checked) return createTransferCheckedInstruction(ata(owner, mint), mint, ata(to, mint), owner, amount, options.decimals ?? 6);
  return createTransferInstruction(ata(owner, mint), ata(to, mint), owner, amount);
}

/** A memo (SPL Memo v2), optionally signed by `signers`. */
export function memoInstruction(text: string, signers: PublicKey[] = []): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'),
    keys: signers.map((pubkey) => ({ pubkey, isSigner: true, isWritable: false })),
    data: Buffer.from(text, 'utf8'),
  });
}

export function closeInstruction(account: PublicKey, options: { destination?: PublicKey; authority?: PublicKey } = {}): TransactionInstruction {
  return createCloseAccountInstruction(account, options.destination ?? FEE_PAYER, options.authority ?? FEE_PAYER);
}
