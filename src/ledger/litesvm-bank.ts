import { PublicKey, SystemProgram } from '@solana/web3.js';
import { Account, LiteSvm } from 'litesvm/dist/internal.js';

/**
 * LiteSVM banks: one made with the programs and checks the emulator wants, and a small pool of
 * closed engines' banks, reset, for the next engine.
 *
 * A bank holds ~7.5 MB of loaded programs, and memory the allocator got back stays in the
 * process, so closed engines' banks are reset and reused (at most {@link MAX_IDLE_BANKS} kept):
 * every account an engine wrote is put back as the bank had it, so that a reused bank behaves as a
 * new one. An engine that ran something the reset cannot see through (a transaction with address
 * lookup tables, a write to an executable or loader-owned account) leaves its bank to the garbage
 * collector instead.
 */

const MAX_IDLE_BANKS = 4;
const SYSTEM_PROGRAM = SystemProgram.programId.toBytes();
const NATIVE_MINT = new PublicKey('So11111111111111111111111111111111111111112').toBytes();
const idleBanks: LiteSvm[] = [];

/** The loaders: an account they own is a program (or its data), which the reset cannot put back. */
export const LOADERS: ReadonlySet<string> = new Set([
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
]);

/** What the bank held at an address before an engine first wrote it (null: nothing). */
export interface OriginalAccount {
  bytes: Uint8Array;
  account: Account | null;
}

/** A reset bank a closed engine left, or a new one. */
export function takeBank(): LiteSvm {
  return idleBanks.pop() ?? newBank();
}

/** Puts back every account a closed engine wrote and keeps the bank for the next engine, unless the pool is full. */
export function releaseBank(svm: LiteSvm, originals: Iterable<OriginalAccount>): void {
  if (idleBanks.length >= MAX_IDLE_BANKS) return;
  // An account that was not there gets 0 lamports and no data, which the runtime and getAccount treat as absent.
  for (const { bytes, account } of originals) svm.setAccount(bytes, account ?? new Account(0n, new Uint8Array(), SYSTEM_PROGRAM, false, 0n));
  idleBanks.push(svm);
}

function newBank(): LiteSvm {
  // Standard: sysvars, builtins, precompiles, the default SPL programs, every feature enabled.
  const svm = new LiteSvm();
  svm.setSigverify(false);
  svm.setBlockhashCheck(false);
  svm.setTransactionHistory(0n);
  // The wrapped-SOL mints (SPL Token's and Token-2022's), as on mainnet. SPL Token's holds 1 SOL,
  // as bankrun's does, so that both engines report the same balances for it.
  svm.withNativeMints();
  const nativeMint = svm.getAccount(NATIVE_MINT);
  if (nativeMint) svm.setAccount(NATIVE_MINT, new Account(1_000_000_000n, nativeMint.data(), nativeMint.owner(), false, 0n));
  return svm;
}
