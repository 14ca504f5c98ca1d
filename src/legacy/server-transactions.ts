import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createMintToCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { PublicKey, Transaction, TransactionInstruction, VersionedTransaction } from '@solana/web3.js';
import type { Ed25519Signer } from '../crypto/ed25519.ts';
import { PROGRAMS } from '../relay/programs.ts';
import { encodeAppMemo } from './app-memo.ts';

/** A transaction the emulator built and signed with keys it holds, ready for `submitSigned`. */
export interface ServerTransaction {
  tx: VersionedTransaction;
  bytes: Uint8Array;
}

/** The app-index memo (Memo v1, as legacy clients send it). */
export function appMemoInstruction(index: number): TransactionInstruction {
  return new TransactionInstruction({ programId: PROGRAMS.memoV1, keys: [], data: Buffer.from(encodeAppMemo({ index })) });
}

/** Builds and fully signs a transaction: `signers[0]` pays the fee. */
export function signServerTransaction(options: { instructions: TransactionInstruction[]; blockhash: string; signers: Ed25519Signer[] }): ServerTransaction {
  const [payer] = options.signers;
  if (!payer) throw new Error('a server transaction needs a fee payer');
  const transaction = new Transaction({ feePayer: new PublicKey(payer.publicKey), blockhash: options.blockhash, lastValidBlockHeight: 0 });
  transaction.add(...options.instructions);
  const message = transaction.compileMessage().serialize();
  for (const signer of options.signers) transaction.addSignature(new PublicKey(signer.publicKey), Buffer.from(signer.sign(message)));
  const bytes = new Uint8Array(transaction.serialize());
  return { tx: VersionedTransaction.deserialize(bytes), bytes };
}

/** The legacy server-side close: rent back to the close authority, which also pays the fee. */
export function buildCloseTransaction(options: {
  tokenAccount: PublicKey;
  closeAuthority: Ed25519Signer;
  appIndex: number;
  addMemo: boolean;
  blockhash: string;
}): ServerTransaction {
  const authority = new PublicKey(options.closeAuthority.publicKey);
  const instructions = [
    ...(options.addMemo ? [appMemoInstruction(options.appIndex)] : []),
    createCloseAccountInstruction(options.tokenAccount, authority, authority),
  ];
  return signServerTransaction({ instructions, blockhash: options.blockhash, signers: [options.closeAuthority] });
}

/** An airdrop: the owner's associated token account (created when missing) receives freshly minted tokens. */
export function buildAirdropTransaction(options: {
  owner: PublicKey;
  mint: PublicKey;
  amount: bigint;
  decimals: number;
  feePayer: Ed25519Signer;
  mintAuthority: Ed25519Signer;
  blockhash: string;
}): ServerTransaction {
  const payer = new PublicKey(options.feePayer.publicKey);
  const account = getAssociatedTokenAddressSync(options.mint, options.owner, true);
  const instructions = [
    createAssociatedTokenAccountIdempotentInstruction(payer, account, options.owner, options.mint),
    createMintToCheckedInstruction(options.mint, account, new PublicKey(options.mintAuthority.publicKey), options.amount, options.decimals),
  ];
  return signServerTransaction({ instructions, blockhash: options.blockhash, signers: [options.feePayer, options.mintAuthority] });
}
