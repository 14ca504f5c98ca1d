import { PublicKey } from '@solana/web3.js';
import type { LedgerAccount } from './engine.ts';
import { rentExemptMinimum } from './rent.ts';

export const SYSVAR_OWNER = new PublicKey('Sysvar1111111111111111111111111111111111111');

/**
 * The size a bank stores a sysvar at, where it is more than its value's: RecentBlockhashes holds
 * room for 150 entries and StakeHistory for 512 (solana-sysvar's `size_of`), the rest of the data
 * zeros, which readers (bincode) leave alone.
 */
const BANK_SIZES: Readonly<Record<string, number>> = {
  SysvarRecentB1ockHashes11111111111111111111: 8 + 150 * 40,
  SysvarStakeHistory1111111111111111111111111: 8 + 512 * 32,
};

/**
 * A sysvar as a bank stores it, where LiteSVM writes it otherwise: funded with the rent-exempt
 * minimum of its size (LiteSVM gives every sysvar 1 lamport) and padded to the bank's size. bankrun,
 * a bank, stores them so already; kit's RPC tests read both (Clock: 40 bytes, 1,169,280 lamports).
 */
export function asBankStoresSysvar(address: string, account: LedgerAccount): LedgerAccount {
  const size = Math.max(BANK_SIZES[address] ?? 0, account.data.length);
  const data = size === account.data.length ? account.data : padded(account.data, size);
  return { ...account, lamports: rentExemptMinimum(size), data };
}

function padded(data: Uint8Array, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(data);
  return bytes;
}
