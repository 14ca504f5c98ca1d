import type { PublicKey } from '@solana/web3.js';
import { addressOf } from '../../base/crypto/key-cache.ts';
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

/**
 * Programs and accounts the engine itself brings (litesvm-bank.ts, mainnet-programs.ts): SPL Token,
 * Token-2022, Associated Token Account, Memo v1 and v3, and the two wrapped-SOL mints. The relay's
 * policy is written for these builds, so an app's program or dump may not take their place.
 */
const ENGINE_ACCOUNTS: ReadonlyMap<string, string> = new Map([
  ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'SPL Token'],
  ['TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb', 'Token-2022'],
  ['ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL', 'the Associated Token Account program'],
  ['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'the Memo program'],
  ['Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo', 'the Memo program (v1)'],
  ['So11111111111111111111111111111111111111112', "SPL Token's wrapped-SOL mint"],
  ['9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP', "Token-2022's wrapped-SOL mint"],
]);

/** The runtime's own accounts (builtins, sysvars, the shipped programs and mints): a validator's scans find them too. */
export const RUNTIME_ADDRESSES: readonly string[] = [...RESERVED_ACCOUNT_KEYS, ...ENGINE_ACCOUNTS.keys()];

/**
 * Why an app's program or account dump may not be loaded at `address`, or null: a builtin program,
 * a sysvar, or one of the programs and mints the engine ships (the relay's policy is written for those).
 */
export function runtimeAccountReason(address: PublicKey): string | null {
  const key = addressOf(address);
  if (RESERVED_ACCOUNT_KEYS.has(key)) return `${key} is a builtin program or a sysvar of the runtime, which nothing may replace`;
  const shipped = ENGINE_ACCOUNTS.get(key);
  return shipped ? `${key} is ${shipped}, which the emulator's runtime ships and its relay policy is written for` : null;
}

/** Reserved keys that hold data, not a program: a validator's genesis takes a dump of them (kit's fixtures load the stake config). */
const GENESIS_DATA_KEYS: ReadonlySet<string> = new Set(['StakeConfig11111111111111111111111111111111']);

/**
 * What loading an app's program or account dump at `address` at genesis does, as solana-test-validator
 * does it: a builtin program or a sysvar is refused; the stake config (data under a reserved key) is
 * taken; a program or mint the emulator ships is replaced, with a warning (SPL Token's and
 * Token-2022's own CI load a fresh build at their address; a validator's genesis adds its SPL
 * programs only where nothing was given); anything else is taken.
 */
export function genesisLoad(address: PublicKey): { refused: string } | { replaces: string } | null {
  const key = addressOf(address);
  if (RESERVED_ACCOUNT_KEYS.has(key) && !GENESIS_DATA_KEYS.has(key))
    return { refused: `${key} is a builtin program or a sysvar of the runtime, which nothing may replace` };
  const shipped = ENGINE_ACCOUNTS.get(key);
  if (shipped) {
    return {
      replaces:
        `${key} is ${shipped}, which the emulator ships: this replaces it at genesis, as on solana-test-validator ` +
        "(the relay's policy was written for mainnet's build)",
    };
  }
  return null;
}

/** Owners of the runtime's own accounts: the loaders (programs and their data), the native loader (builtins) and the sysvar owner. */
export const RUNTIME_OWNERS: ReadonlySet<string> = new Set([
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
