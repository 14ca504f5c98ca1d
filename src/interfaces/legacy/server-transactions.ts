import { associatedTokenAddress, closeAccount, createAssociatedTokenAccount, mintTo } from '../../domain/ledger/spl-token.ts';
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { Ed25519Signer } from '../../base/crypto/ed25519.ts';
import { PROGRAMS } from '../../domain/relay/programs.ts';
import { encodeAppMemo } from './app-memo.ts';
import { signTransaction, type SignedTransaction } from '../../base/crypto/sign-transaction.ts';

/** A transaction the emulator built and signed with keys it holds, ready for `submitSigned`. */
export type ServerTransaction = SignedTransaction;

/** The app-index memo (Memo v1, as legacy clients send it). */
export function appMemoInstruction(index: number): TransactionInstruction {
  return new TransactionInstruction({ programId: PROGRAMS.memoV1, keys: [], data: Buffer.from(encodeAppMemo({ index })) });
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
  const instructions = [...(options.addMemo ? [appMemoInstruction(options.appIndex)] : []), closeAccount(options.tokenAccount, authority, authority)];
  return signTransaction({ instructions, blockhash: options.blockhash, signers: [options.closeAuthority] });
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
  const account = associatedTokenAddress(options.mint, options.owner);
  const instructions = [
    createAssociatedTokenAccount(payer, account, options.owner, options.mint, { idempotent: true }),
    mintTo(options.mint, account, new PublicKey(options.mintAuthority.publicKey), options.amount, { decimals: options.decimals }),
  ];
  return signTransaction({ instructions, blockhash: options.blockhash, signers: [options.feePayer, options.mintAuthority] });
}
