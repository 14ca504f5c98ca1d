/**
 * Builds `signedTransaction` values the way a client of the service does (service spec 4.2):
 * fee payer = the published FeePayer, a recent blockhash, partially signed by the client's keys,
 * serialised and base64-encoded. Built with the web3.js and spl-token instruction builders.
 */
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createCloseAccountInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { PublicKey, Transaction, type Keypair, type TransactionInstruction } from '@solana/web3.js';
import { decodeBase58 } from '../base/crypto/base58.ts';

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
}

export interface BuiltTransaction {
  transaction: Transaction;
  /** The base64 `signedTransaction`. */
  base64: string;
}

export interface TokenTransfer {
  source: PublicKey;
  destination: PublicKey;
  authority: Keypair;
  amount: bigint;
  /** With mint and decimals the transfer is a TransferChecked, else a Transfer. */
  mint?: PublicKey;
  decimals?: number;
}

export function associatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  return getAssociatedTokenAddressSync(mint, owner, true);
}

/** The create-account instructions of spec 4.2: the owner's ATA paid by the fee payer, then its close authority set to the fee payer. */
export function createAccountInstructions(feePayer: PublicKey, owner: PublicKey, mint: PublicKey): TransactionInstruction[] {
  const account = associatedTokenAddress(owner, mint);
  return [
    createAssociatedTokenAccountInstruction(feePayer, account, owner, mint),
    createSetAuthorityInstruction(account, owner, AuthorityType.CloseAccount, feePayer),
  ];
}

export function transferInstruction(t: TokenTransfer): TransactionInstruction {
  return t.mint !== undefined && t.decimals !== undefined
    ? createTransferCheckedInstruction(t.source, t.mint, t.destination, t.authority.publicKey, t.amount, t.decimals)
    : createTransferInstruction(t.source, t.destination, t.authority.publicKey, t.amount);
}

/** The close of spec 4.2: one CloseAccount whose destination and authority are the fee payer. */
export function closeAccountInstruction(feePayer: PublicKey, account: PublicKey): TransactionInstruction {
  return createCloseAccountInstruction(account, feePayer, feePayer);
}

/** A transaction with `feePayer` as fee payer, partially signed by `signers` (none of them the fee payer). */
export function buildTransaction(feePayer: PublicKey, recent: RecentBlockhash, instructions: TransactionInstruction[], signers: Keypair[]): BuiltTransaction {
  const transaction = new Transaction({ feePayer, blockhash: recent.blockhash, lastValidBlockHeight: recent.lastValidBlockHeight });
  transaction.add(...instructions);
  if (signers.length > 0) transaction.partialSign(...signers);
  const base64 = transaction.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
  return { transaction, base64 };
}

/** Is `signature` (base58) a valid ed25519 signature of `signer` over the transaction's message? */
export function isSignatureOf(built: BuiltTransaction, signer: PublicKey, signature: string): boolean {
  const bytes = decodeBase58(signature);
  if (bytes === null || bytes.length !== 64) return false;
  const copy = Transaction.from(built.transaction.serialize({ requireAllSignatures: false, verifySignatures: false }));
  if (!copy.signatures.some((s) => s.publicKey.equals(signer))) return false;
  copy.addSignature(signer, Buffer.from(bytes));
  const entry = copy.signatures.find((s) => s.publicKey.equals(signer));
  // verifySignatures(false) checks the signatures present, ignoring missing ones.
  return entry?.signature !== null && copy.verifySignatures(false);
}

export function toPublicKey(address: string): PublicKey | undefined {
  try {
    return new PublicKey(address);
  } catch {
    return undefined;
  }
}
