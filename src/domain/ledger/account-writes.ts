import type { PublicKey } from '@solana/web3.js';
import type { LedgerAccount } from './engine.ts';
import { protectedAccountReason, ProtectedAccountError } from './protected-accounts.ts';
import { addressOf } from '../../base/crypto/key-cache.ts';

/** One write of Ledger.setAccounts: the account as given, or as a function of its current state (null when absent). */
export interface AccountWrite {
  address: PublicKey;
  account: LedgerAccount | ((current: LedgerAccount | null) => LedgerAccount);
}

/**
 * What a batch of direct writes stores, by address, the reservoir included: the lamports the
 * writes gain or lose in all are taken from or given to the reservoir, so that the ledger's total
 * stays what the engine expects (bankrun checks it against its capitalization at every new slot,
 * and aborts the process on a mismatch). Throws a RangeError when the reservoir is missing or
 * cannot cover the difference. Reads only: nothing is written here.
 */
export async function balancedWrites(
  writes: AccountWrite[],
  read: (address: PublicKey) => Promise<LedgerAccount | null>,
  reservoir: PublicKey | undefined,
): Promise<Map<string, { address: PublicKey; account: LedgerAccount }>> {
  let delta = 0n;
  const final = new Map<string, { address: PublicKey; account: LedgerAccount }>();
  const current = async (address: PublicKey) => final.get(addressOf(address))?.account ?? (await read(address));
  for (const write of writes) {
    const before = await current(write.address);
    const account = typeof write.account === 'function' ? write.account(before) : write.account;
    delta += account.lamports - (before?.lamports ?? 0n);
    final.set(addressOf(write.address), { address: write.address, account });
  }
  if (delta !== 0n) {
    if (!reservoir) throw new RangeError(`setAccount would change the ledger's total by ${delta} lamports and no reservoir is configured`);
    const balance = await current(reservoir);
    if (!balance || balance.lamports < delta) {
      throw new RangeError(`the reservoir ${addressOf(reservoir)} holds ${balance?.lamports ?? 0n} lamports, not enough for ${delta} more`);
    }
    final.set(addressOf(reservoir), { address: reservoir, account: { ...balance, lamports: balance.lamports - delta } });
  }
  return final;
}

/**
 * The writes that touch none of the runtime's own accounts (protected-accounts.ts), each resolved
 * against the current state: with `refuse`, a ProtectedAccountError for the first that does (nothing
 * is written); with `skip`, those are left out, with a warning.
 */
export async function unprotectedWrites(
  writes: AccountWrite[],
  read: (address: PublicKey) => Promise<LedgerAccount | null>,
  protectedAccounts: 'refuse' | 'skip',
): Promise<{ address: PublicKey; account: LedgerAccount }[]> {
  const allowed: { address: PublicKey; account: LedgerAccount }[] = [];
  for (const write of writes) {
    const current = await read(write.address);
    const account = typeof write.account === 'function' ? write.account(current) : write.account;
    const reason = protectedAccountReason(write.address, current, account);
    if (reason === null) allowed.push({ address: write.address, account });
    else if (protectedAccounts === 'refuse') throw new ProtectedAccountError(reason);
    else console.warn(`relay-emulator: left out a saved write to ${addressOf(write.address)}: ${reason}.`);
  }
  return allowed;
}
