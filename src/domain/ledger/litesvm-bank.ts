import { createHash } from 'node:crypto';
import { PublicKey, SystemProgram } from '@solana/web3.js';
import { Account, ComputeBudget, EpochSchedule, FeatureSet, LiteSvm } from 'litesvm/dist/internal.js';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import type { EngineSettings } from './engine.ts';

/**
 * LiteSVM banks: one made with the programs and checks the emulator wants, and a small pool of
 * closed engines' banks, reset, for the next engine with the same genesis.
 *
 * A bank holds ~7.5 MB of loaded programs, and memory the allocator got back stays in the
 * process, so closed engines' banks are reset and reused (at most {@link MAX_IDLE_BANKS} kept, the
 * oldest let go first): every account an engine wrote since genesis is put back as the bank had it,
 * so that a reused bank holds its genesis as a new one would. An engine that ran something the
 * reset cannot see through (a transaction with address lookup tables, a write to an executable or
 * loader-owned account after genesis) leaves its bank to the garbage collector instead.
 */

const MAX_IDLE_BANKS = 4;
const SYSTEM_PROGRAM = SystemProgram.programId.toBytes();
const NATIVE_MINT = new PublicKey('So11111111111111111111111111111111111111112').toBytes();
/**
 * Idle banks by the genesis they hold (see genesisKey): a closed engine puts back what it wrote
 * since genesis, so its bank holds that genesis, programs loaded in LiteSVM's program cache (which
 * no reset can take back out), and serves the next engine with the same genesis, which sets
 * nothing: Light Protocol's five programs took 42-44 ms to load and its 36 dumped accounts 10-14
 * (BENCHMARKS.md, "The app's own programs").
 */
const idleBanks = new Map<string, LiteSvm[]>();
/** Every idle bank, oldest first: when the pool is full, the oldest makes room (a genesis no longer used). */
const idleOrder: { genesis: string; svm: LiteSvm }[] = [];

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

/**
 * A bank a closed engine left holding the genesis `genesis` names (see genesisKey), or a new one;
 * `warm` says whether it holds that genesis already ('' names none: a bare bank).
 */
export function takeBank(genesis = '', settings: EngineSettings = {}): { svm: LiteSvm; warm: boolean } {
  const svm = idleBanks.get(genesis)?.pop();
  if (!svm) return { svm: newBank(settings), warm: false };
  idleOrder.splice(
    idleOrder.findIndex((entry) => entry.svm === svm),
    1,
  );
  return { svm, warm: true };
}

/**
 * Puts back every account a closed engine wrote since genesis and keeps the bank for the next
 * engine with the same genesis; when the pool is full, the bank idle longest is let go first.
 */
export function releaseBank(svm: LiteSvm, originals: Iterable<OriginalAccount>, genesis = ''): void {
  // An account that was not there gets 0 lamports and no data, which the runtime and getAccount treat as absent.
  for (const { bytes, account } of originals) svm.setAccount(bytes, account ?? new Account(0n, new Uint8Array(), SYSTEM_PROGRAM, false, 0n));
  if (idleOrder.length >= MAX_IDLE_BANKS) {
    const oldest = idleOrder.shift()!;
    const banks = idleBanks.get(oldest.genesis)!;
    banks.splice(banks.indexOf(oldest.svm), 1);
    if (banks.length === 0) idleBanks.delete(oldest.genesis);
  }
  idleBanks.set(genesis, [...(idleBanks.get(genesis) ?? []), svm]);
  idleOrder.push({ genesis, svm });
}

const hashes = new WeakMap<Uint8Array, string>();

/**
 * What names a genesis: each account's address, lamports, owner, executable flag and the SHA-256 of
 * its data, hashed once per byte array (the app's ELFs and dumps are kept per process, so a suite's
 * emulators hash them once). '' for none.
 */
export function genesisKey(accounts: Iterable<{ address: string; lamports: bigint; owner: string; executable: boolean; data: Uint8Array }>): string {
  const parts: string[] = [];
  for (const { address, lamports, owner, executable, data } of accounts) {
    let hash = hashes.get(data);
    if (hash === undefined) {
      hash = createHash('sha256').update(data).digest('hex');
      hashes.set(data, hash);
    }
    parts.push(`${address}:${lamports}:${owner}:${executable ? 1 : 0}:${hash}`);
  }
  return parts.join(',');
}

/** What names a bank's settings in its pool key: '' for mainnet's (every feature on, the default budget and schedule). */
export function settingsKey(settings: EngineSettings): string {
  const { slotsPerEpoch, computeUnitLimit, deactivatedFeatures = [] } = settings;
  if (slotsPerEpoch === undefined && computeUnitLimit === undefined && deactivatedFeatures.length === 0) return '';
  return `epoch:${slotsPerEpoch ?? '-'};units:${computeUnitLimit ?? '-'};off:${[...deactivatedFeatures].sort().join('+')}|`;
}

/** A bank no engine has used: the one to read mainnet's programs from (mainnet-programs.ts), whatever the pool holds. */
export function newBank(settings: EngineSettings = {}): LiteSvm {
  // Standard: sysvars, builtins, precompiles, the default SPL programs, every feature enabled.
  const svm = new LiteSvm();
  applySettings(svm, settings);
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

/** solana-test-validator's genesis flags, as LiteSVM takes them: the budget, the feature set, the EpochSchedule sysvar. */
function applySettings(svm: LiteSvm, { slotsPerEpoch, computeUnitLimit, deactivatedFeatures = [] }: EngineSettings): void {
  if (computeUnitLimit !== undefined) {
    const budget = new ComputeBudget();
    budget.computeUnitLimit = computeUnitLimit;
    svm.setComputeBudget(budget);
  }
  if (deactivatedFeatures.length > 0) {
    const features = FeatureSet.allEnabled();
    for (const feature of deactivatedFeatures) features.deactivate(decodeBase58(feature)!);
    svm.setFeatureSet(features);
  }
  if (slotsPerEpoch !== undefined) svm.setEpochSchedule(new EpochSchedule(slotsPerEpoch, slotsPerEpoch, false, 0n, 0n));
}
