import { PublicKey, SystemProgram, type VersionedMessage } from '@solana/web3.js';
import { encodeBase58 } from '../../base/crypto/base58.ts';
import type { LedgerAccount } from './engine.ts';

/** The System Program's AdvanceNonceAccount instruction tag. */
const ADVANCE_NONCE_ACCOUNT = 4;
/** A nonce account's size: version (u32), state (u32), authority (32), durable nonce (32), lamports per signature (u64). */
export const NONCE_ACCOUNT_LENGTH = 80;

/** A nonce account's state, when `account` is an initialized one (owned by the System Program, 80 bytes). */
export function nonceStateOf(account: LedgerAccount | null): { authority: PublicKey; nonce: string; lamportsPerSignature: bigint } | null {
  if (!account?.owner.equals(SystemProgram.programId) || account.data.length !== NONCE_ACCOUNT_LENGTH) return null;
  const data = Buffer.from(account.data.buffer, account.data.byteOffset, account.data.byteLength);
  // Version 0 (legacy) and 1 (current) share the layout; state 1 is Initialized.
  if (data.readUInt32LE(0) > 1 || data.readUInt32LE(4) !== 1) return null;
  return {
    authority: new PublicKey(data.subarray(8, 40)),
    nonce: encodeBase58(data.subarray(40, 72)),
    lamportsPerSignature: data.readBigUInt64LE(72),
  };
}

/**
 * Whether `message` is a durable-nonce transaction that may land now, as the runtime's
 * check_transaction_age decides once its blockhash is not a recent one: its first instruction is
 * the System Program's AdvanceNonceAccount, whose nonce account the message writes, and that
 * account stores the message's `recentBlockhash` as its nonce; the nonce's authority signs it.
 */
export async function usesStoredNonce(message: VersionedMessage, read: (address: PublicKey) => Promise<LedgerAccount | null>): Promise<boolean> {
  const first = message.compiledInstructions[0];
  const keys = message.staticAccountKeys;
  if (!first || !keys[first.programIdIndex]?.equals(SystemProgram.programId)) return false;
  if (first.data.length < 4 || Buffer.from(first.data.buffer, first.data.byteOffset, 4).readUInt32LE(0) !== ADVANCE_NONCE_ACCOUNT) return false;
  const nonceIndex = first.accountKeyIndexes[0];
  if (nonceIndex === undefined || nonceIndex >= keys.length || !message.isAccountWritable(nonceIndex)) return false;
  const state = nonceStateOf(await read(keys[nonceIndex]!));
  if (!state || state.nonce !== message.recentBlockhash) return false;
  return keys.some((key, index) => index < message.header.numRequiredSignatures && key.equals(state.authority));
}
