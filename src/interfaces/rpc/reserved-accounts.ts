import { PublicKey, type VersionedMessage } from '@solana/web3.js';
import { RESERVED_ACCOUNT_KEYS as RESERVED } from '../../domain/ledger/protected-accounts.ts';

const UPGRADEABLE_LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');

/**
 * Whether the runtime lets the message write static key `index`: the header says writable, the key
 * is not reserved, and it is not invoked as a program (unless the upgradeable loader is present).
 */
export function isWritable(message: VersionedMessage, index: number): boolean {
  if (!message.isAccountWritable(index)) return false;
  const keys = message.staticAccountKeys;
  const key = keys[index];
  if (!key || RESERVED.has(key.toBase58())) return false;
  const calledAsProgram = message.compiledInstructions.some((ix) => ix.programIdIndex === index);
  return !calledAsProgram || keys.some((candidate) => candidate.equals(UPGRADEABLE_LOADER));
}

/** Whether the runtime never lets a transaction write `address` (builtins, sysvars), however it is named. */
export function isReservedAddress(address: string): boolean {
  return RESERVED.has(address);
}
