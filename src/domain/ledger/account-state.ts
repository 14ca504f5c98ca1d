import { PublicKey, SystemProgram } from '@solana/web3.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { LedgerAccount } from './engine.ts';
import { RUNTIME_OWNERS } from './protected-accounts.ts';

/** An account as the controls read and write it. */
export interface AccountState {
  lamports: bigint;
  /** The owning program, base58. */
  owner: string;
  data: Uint8Array;
  executable: boolean;
}

/** Solana's largest account's data, MAX_PERMITTED_DATA_LENGTH: 10 MiB. No program or dump is larger. */
export const MAX_ACCOUNT_DATA_BYTES = 10 * 1024 * 1024;

/** What the ledger stores for "no account": bankrun, like Solana, treats 0 lamports as absent. */
export const ABSENT_ACCOUNT: LedgerAccount = { lamports: 0n, owner: SystemProgram.programId, data: new Uint8Array(), executable: false };

/** Accounts the runtime itself provides (programs, sysvars): reset and the state file leave them alone. */
export function isBuiltinAccount(account: LedgerAccount | null): boolean {
  return account !== null && (account.executable || RUNTIME_OWNERS.has(account.owner.toBase58()));
}

export function toAccountState(account: LedgerAccount): AccountState {
  return { lamports: account.lamports, owner: account.owner.toBase58(), data: account.data, executable: account.executable };
}

export function toLedgerAccount(state: AccountState): LedgerAccount {
  return { lamports: state.lamports, owner: parseAddress(state.owner, 'owner'), data: state.data, executable: state.executable };
}

/**
 * A base58 public key, or 400 INVALID_ADDRESS naming the field. A PublicKey of another copy of
 * web3.js (an app's own, of another version) is not an instance of ours: its base58 is taken.
 */
export function parseAddress(input: string | PublicKey, field = 'address'): PublicKey {
  if (input instanceof PublicKey) return input;
  const foreign = typeof input === 'object' && input !== null && typeof (input as { toBase58?: unknown }).toBase58 === 'function';
  const address = foreign ? (input as { toBase58(): string }).toBase58() : input;
  let key: PublicKey | null = null;
  try {
    key = new PublicKey(address);
  } catch {
    // Reported below.
  }
  // Only the canonical spelling: PublicKey also takes base58 with leading zeros that encodes the same key.
  if (key === null || key.toBase58() !== address) throw new RelayError('INVALID_ADDRESS', `${field} "${address}" is not a base58 32-byte public key.`);
  return key;
}
