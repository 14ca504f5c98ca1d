import type { PublicKey } from '@solana/web3.js';
import { addressOf } from '../crypto/key-cache.ts';
import type { LedgerAccount } from './engine.ts';

/** Agave's reserved account keys (builtin programs and sysvars): a message can never write them. */
export const RESERVED_ACCOUNT_KEYS: ReadonlySet<string> = new Set([
  '11111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'Feature111111111111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'StakeConfig11111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'ZkTokenProof1111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111',
  'SysvarEpochRewards1111111111111111111111111',
  'SysvarEpochSchedu1e111111111111111111111111',
  'SysvarFees111111111111111111111111111111111',
  'Sysvar1nstructions1111111111111111111111111',
  'SysvarLastRestartS1ot1111111111111111111111',
  'SysvarRecentB1ockHashes11111111111111111111',
  'SysvarRent111111111111111111111111111111111',
  'SysvarRewards111111111111111111111111111111',
  'SysvarS1otHashes111111111111111111111111111',
  'SysvarS1otHistory11111111111111111111111111',
  'SysvarStakeHistory1111111111111111111111111',
]);

/** Owners of the runtime's own accounts: the loaders (programs and their data), the native loader (builtins) and the sysvar owner. */
const RUNTIME_OWNERS: ReadonlySet<string> = new Set([
  'Sysvar1111111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
]);

/** Owners no direct write may give an account: under them the engine holds only its own builtins and sysvars. */
const ENGINE_ONLY_OWNERS: ReadonlySet<string> = new Set(['Sysvar1111111111111111111111111111111111111', 'NativeLoader1111111111111111111111111111111']);

/**
 * Why a direct write (a test control or a restore, not a transaction) must not touch `address`, or
 * null when it may. The runtime's own accounts are off limits: a builtin program or a sysvar
 * (reserved keys), a loaded program or its data (executable, or owned by a loader), and accounts
 * only the runtime makes (owned by the native loader or the sysvar owner). LiteSVM aborts the
 * process at its next transaction when one of them is replaced (an empty System Program, an empty
 * Rent sysvar), and no reset can mend it.
 */
export function protectedAccountReason(address: PublicKey, current: LedgerAccount | null, next: LedgerAccount): string | null {
  const key = addressOf(address);
  if (RESERVED_ACCOUNT_KEYS.has(key)) return `${key} is a builtin program or a sysvar of the runtime`;
  if (current && (current.executable || RUNTIME_OWNERS.has(addressOf(current.owner)))) return `${key} is a program, or a program's data, loaded in the runtime`;
  if (next.lamports > 0n && ENGINE_ONLY_OWNERS.has(addressOf(next.owner))) return `only the runtime makes accounts owned by ${addressOf(next.owner)}`;
  return null;
}

/** A direct write refused because it would replace one of the runtime's own accounts. */
export class ProtectedAccountError extends Error {
  override readonly name = 'ProtectedAccountError';
}
