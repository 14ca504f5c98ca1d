// Over 250 lines: the Ledger is the one seam over the engine, and what is left here after its parts moved out is the ordering of calls they share.
import { PublicKey, type VersionedMessage, type VersionedTransaction } from '@solana/web3.js';
import type { ChangeReporter } from '../state/change-feed.ts';
import { AccountReads } from './account-reads.ts';
import { balancedWrites, unprotectedWrites, type AccountWrite } from './account-writes.ts';
import { transactionFee } from './compute-budget.ts';
import type { EngineExecution, LedgerAccount, LedgerEngine } from './engine.ts';
import { LedgerBlockhashes } from './ledger-blockhashes.ts';
import { reportedAccount, type ClockMark, type LedgerChange } from './ledger-changes.ts';
import {
  DEFAULT_TRANSACTIONS_PER_SLOT,
  INSTANT_COMMITMENTS,
  type BlockhashInfo,
  type CommitmentDepths,
  type CommitmentLevel,
  type DetailedSimulation,
  type LedgerClock,
  type LedgerOptions,
  type LedgerTransaction,
  type SimulationResult,
} from './ledger-types.ts';
import { SlotClock } from './slot-clock.ts';
import { loadedAddressesOf, NO_LOADED_ADDRESSES } from './loaded-addresses.ts';
import { RESERVED_ACCOUNT_KEYS, RUNTIME_ADDRESSES } from './protected-accounts.ts';
import { usesStoredNonce } from './durable-nonce.ts';
import { landedInBlock } from './transaction-error.ts';
import { DROPPED, simulationResult, transactionRecord, writtenAccountsOf } from './transaction-record.ts';
import { addressOf } from '../../base/crypto/key-cache.ts';
import { EpochSchedule } from './epoch-schedule.ts';

export {
  DEFAULT_TRANSACTIONS_PER_SLOT,
  INSTANT_COMMITMENTS,
  VALIDATOR_COMMITMENTS,
  type BlockhashInfo,
  type CommitmentDepths,
  type CommitmentLevel,
  type LedgerClock,
  type LedgerOptions,
  type LedgerTransaction,
  type SimulationResult,
  type TokenBalanceSnapshot,
} from './ledger-types.ts';

/**
 * The emulator's ledger: an engine plus the things the emulator owns itself, so that they are
 * deterministic and engine-independent: slots, block height, the clock, blockhash validity (its
 * rule is BlockhashRegistry's), fees and the pre/post balances each transaction reports.
 *
 * Slots hold several transactions, as a cluster's blocks do: the rule is the ledger's, not an
 * engine's (slot-clock.ts).
 *
 * The one seam: it orders the calls and tells the engine and the change feed; its parts are
 * slot-clock.ts, ledger-blockhashes.ts, account-reads.ts, account-writes.ts, transaction-record.ts.
 */
export class Ledger {
  readonly #engine: LedgerEngine;
  readonly #options: LedgerOptions;
  readonly #clock: SlotClock;
  readonly #blockhashes: LedgerBlockhashes;
  readonly #reads: AccountReads;
  /** Addresses written since creation or the last forgetWrites() (reset and the state file read them). */
  readonly #written = new Set<string>();
  /** The rent epochs genesis accounts were given (absent: u64::MAX, what the RPC reports otherwise). */
  readonly #genesisRentEpochs: ReadonlyMap<string, bigint>;
  #lock: Promise<unknown> = Promise.resolve();
  /**
   * The lowest slot the confirmed and finalized commitments stand at: the slot of the last warp or
   * restore, rooted as a validator roots its `--warp-slot` bank or the slot it restarts from.
   */
  #rootFloor = 0n;
  /** Who waits for a slot past `after` ({@link untilSlotAfter}). */
  #slotWaiters: { after: bigint; wake: () => void }[] = [];
  readonly #depths: CommitmentDepths;
  readonly #report: ChangeReporter;
  /** Its epochs: mainnet's, or `settings.slotsPerEpoch` slots each (the Clock sysvar, the RPC's epoch answers). */
  readonly epochSchedule: EpochSchedule;

  private constructor(engine: LedgerEngine, options: LedgerOptions) {
    this.#engine = engine;
    this.#options = options;
    this.epochSchedule = new EpochSchedule(options.settings?.slotsPerEpoch);
    this.#depths = options.commitmentDepths ?? INSTANT_COMMITMENTS;
    this.#clock = new SlotClock({
      genesisTime: options.genesisTime,
      slotMs: options.slotMs,
      perSlot: options.transactionsPerSlot ?? DEFAULT_TRANSACTIONS_PER_SLOT,
      schedule: this.epochSchedule,
    });
    this.#report = options.changes?.reporter('ledger') ?? (() => undefined);
    this.#blockhashes = new LedgerBlockhashes(this.#report);
    this.#reads = new AccountReads(engine);
    this.#genesisRentEpochs = new Map(
      options.genesis.flatMap(({ address, account }) => (account.rentEpoch === undefined ? [] : [[addressOf(address), account.rentEpoch] as const])),
    );
  }

  static async create(options: LedgerOptions): Promise<Ledger> {
    const perSlot = options.transactionsPerSlot ?? DEFAULT_TRANSACTIONS_PER_SLOT;
    if (!Number.isSafeInteger(perSlot) || perSlot < 1) throw new RangeError(`transactionsPerSlot must be a whole number of at least 1, not ${perSlot}`);
    const ledger = new Ledger(await options.engine(options.genesis, options.settings), options);
    ledger.#moveTo(ledger.#clock.slot + 1n, 1n);
    return ledger;
  }

  /** Genesis hash stand-in: stable for a given genesis time. */
  get genesisHash(): string {
    return this.#clock.genesisHash;
  }

  clock(): LedgerClock {
    return this.#clock.clock();
  }

  /** The slot a commitment stands at: the current one, or as far behind it as {@link LedgerOptions.commitmentDepths} says (never below 0). */
  slotAt(commitment: CommitmentLevel): bigint {
    const { slot } = this.#clock;
    const depth = commitment === 'processed' ? 0n : BigInt(this.#depths[commitment]);
    const behind = slot > depth ? slot - depth : 0n;
    return behind > this.#rootFloor ? behind : this.#rootFloor < slot ? this.#rootFloor : slot;
  }

  /** The block height at a commitment's slot: every slot behind the current one a block. */
  blockHeightAt(commitment: CommitmentLevel): bigint {
    const behind = this.#clock.slot - this.slotAt(commitment);
    const { blockHeight } = this.#clock;
    return blockHeight > behind ? blockHeight - behind : 0n;
  }

  /** Whether commitments lag the current slot (validator timing) or everything is final at once. */
  get commitmentsLag(): boolean {
    return this.#depths.confirmed > 0 || this.#depths.finalized > 0;
  }

  /** Resolves once a slot past `slot` has opened (at once if one has). */
  untilSlotAfter(slot: bigint): Promise<void> {
    if (this.#clock.slot > slot) return Promise.resolve();
    return new Promise((wake) => this.#slotWaiters.push({ after: slot, wake }));
  }

  blockTime(slot: bigint): number {
    return Number(this.#clock.unixAt(slot));
  }

  latestBlockhash(): Promise<BlockhashInfo> {
    return this.#blockhashes.latest(this.#engine, this.#clock.blockHeight);
  }

  /** True when `blockhash` was handed out by this ledger and has not aged out or been expired. */
  isBlockhashValid(blockhash: string): boolean {
    return this.#blockhashes.isValid(blockhash, this.#clock.blockHeight);
  }

  /**
   * True when the transaction may land now: its blockhash is valid, or it is a durable-nonce
   * transaction (its first instruction advances a nonce account, its "blockhash" is the nonce that
   * account stores, and the nonce's authority signs it), as a validator's check_transaction_age
   * decides. Once it lands the nonce has moved, so the same transaction is never valid again.
   */
  async isTransactionRecent(message: VersionedMessage): Promise<boolean> {
    if (this.isBlockhashValid(message.recentBlockhash)) return true;
    return usesStoredNonce(message, (address) => this.#reads.read(address));
  }

  /** Invalidates every blockhash handed out so far and moves to a new slot with a new one. */
  async expireBlockhashes(): Promise<BlockhashInfo> {
    return this.#exclusive(async () => {
      this.#blockhashes.expireAll();
      this.#moveTo(this.#clock.slot + 1n, 1n);
      this.#report({ op: 'clock', clock: this.#clock.mark() } satisfies LedgerChange);
      return this.latestBlockhash();
    });
  }

  /**
   * Opens the next slot, as time passes (wall-clock and validator timing): unlike a warp, it roots
   * nothing, so the commitments keep their distance behind it.
   */
  async tick(): Promise<LedgerClock> {
    return this.#exclusive(async () => {
      this.#moveTo(this.#clock.slot + 1n, 1n);
      this.#report({ op: 'clock', clock: this.#clock.mark() } satisfies LedgerChange);
      return this.clock();
    });
  }

  /**
   * Warps forward by `slots` (each slot one block), or to `slot`, and optionally sets the clock. The
   * slot it lands on is rooted: confirmed and finalized stand there until time moves past them.
   */
  async warp(options: { slots?: number; slot?: bigint; unixTimestamp?: bigint }): Promise<LedgerClock> {
    return this.#exclusive(async () => {
      const from = this.#clock.slot;
      const target = options.slot ?? from + BigInt(options.slots ?? 0);
      if (target < from) throw new RangeError(`cannot warp back from slot ${from} to ${target}`);
      if (options.unixTimestamp !== undefined) this.#clock.setTime(target, options.unixTimestamp);
      if (target > from) this.#moveTo(target, target - from);
      else {
        this.#reads.clear();
        this.#engine.advance(this.#clock.engineClockAt(from));
      }
      this.#rootFloor = target;
      this.#report({ op: 'clock', clock: this.#clock.mark() } satisfies LedgerChange);
      return this.clock();
    });
  }

  /**
   * An account's current state, cached until the next write (a processed transaction, a slot
   * change, setAccounts), which all go through this class (account-reads.ts). Do not mutate it.
   */
  getAccount(address: PublicKey): Promise<LedgerAccount | null> {
    const read = this.#reads.read(address);
    if (this.#genesisRentEpochs.size === 0) return read;
    // A genesis account that came with a rent epoch (a dump's, a validator account's) keeps it until it is written.
    const key = addressOf(address);
    const rentEpoch = this.#genesisRentEpochs.get(key);
    if (rentEpoch === undefined || this.#written.has(key)) return read;
    return read.then((account) => (account === null ? null : { ...account, rentEpoch }));
  }

  /** Writes one account as given (0 lamports removes it); see {@link setAccounts}. */
  setAccount(address: PublicKey, account: LedgerAccount): Promise<void> {
    return this.setAccounts([{ address, account }]);
  }

  /**
   * Writes accounts as given (0 lamports removes one; or as a function of the current state),
   * between transactions, never during one; the reservoir balances the lamports (account-writes.ts).
   * Throws a RangeError when it is missing or cannot cover the difference; nothing is written then.
   * The runtime's own accounts (builtins, sysvars, loaded programs: protected-accounts.ts) are never
   * written: a write to one throws ProtectedAccountError, writing nothing (`protectedAccounts:
   * 'refuse'`, the default), or is left out (`'skip'`: restoring a state saved before this rule).
   * With `exact`, nothing is balanced: the writes are a whole recorded state (restore, replay);
   * except on an engine that checks its capitalization (bankrun), where the reservoir still keeps
   * the total, so a restart credits it with the fees burned before it (docs/programs.md).
   */
  async setAccounts(writes: AccountWrite[], options: { protectedAccounts?: 'refuse' | 'skip'; exact?: boolean } = {}): Promise<void> {
    return this.#exclusive(async () => {
      const allowed = await unprotectedWrites(writes, (address) => this.#engine.getAccount(address), options.protectedAccounts ?? 'refuse');
      // `exact`: a state put back as it was recorded (restore, a journal's replay), the reservoir's own
      // balance included; balancing it again would hand the reservoir every fee burned since genesis.
      // Not on an engine that checks its capitalization (bankrun): there the reservoir keeps the total.
      const final =
        options.exact && !this.#engine.checksCapitalization
          ? new Map(allowed.map((write) => [addressOf(write.address), write]))
          : await balancedWrites(allowed, (address) => this.#engine.getAccount(address), this.#options.reservoir);
      this.#reads.clear();
      for (const [key, { address, account }] of final) {
        this.#written.add(key);
        this.#reads.forgetMint(key);
        this.#engine.setAccount(address, account);
      }
      if (this.#options.changes?.recording) {
        this.#report({ op: 'write', accounts: [...final].map(([key, { account }]) => [key, reportedAccount(account)]) } satisfies LedgerChange);
      }
      if (this.#options.events?.listening('accounts')) this.#options.events.emit('accounts', { written: [...final.keys()] });
    });
  }

  /**
   * Writes a program's accounts (program-accounts.ts), between transactions: the one direct write
   * the protection of the runtime's accounts lets through, since it writes them whole as a loader
   * lays them out. The reservoir pays their rent, as setAccounts balances any write; only the
   * reservoir's change is reported as the ledger's (the programs' own part reports the program,
   * and replays it). Throws a RangeError on an engine that cannot deploy while running.
   */
  async writeProgram(accounts: { address: PublicKey; account: LedgerAccount }[]): Promise<void> {
    return this.#exclusive(async () => {
      if (!this.#engine.deploysPrograms) {
        throw new RangeError(
          `the ${this.#engine.name} engine loads programs at start only (its program cache keeps the code it first loaded); ` +
            'use litesvm to deploy while running',
        );
      }
      const final = await balancedWrites(accounts, (address) => this.#engine.getAccount(address), this.#options.reservoir);
      this.#reads.clear();
      const others: [string, LedgerAccount][] = [];
      for (const [key, { address, account }] of final) {
        this.#engine.setAccount(address, account);
        if (!accounts.some((written) => addressOf(written.address) === key)) {
          this.#written.add(key);
          others.push([key, account]);
        }
      }
      if (this.#options.changes?.recording && others.length > 0) {
        this.#report({ op: 'write', accounts: others.map(([key, account]) => [key, reportedAccount(account)]) } satisfies LedgerChange);
      }
      if (this.#options.events?.listening('accounts')) this.#options.events.emit('accounts', { written: [...final.keys()] });
    });
  }

  /** Reads accounts between transactions and writes, never during one (the state file's snapshot: what it reads is journaled already). */
  readAccounts(addresses: PublicKey[]): Promise<(LedgerAccount | null)[]> {
    return this.#exclusive(() => Promise.all(addresses.map((address) => this.#engine.getAccount(address))));
  }

  /** Puts the clock where a snapshot or journal left it (restore): the slot never goes back. */
  restoreClock(clock: ClockMark): Promise<void> {
    return this.#exclusive(async () => {
      const slot = this.#clock.restore(clock);
      // A restart roots where it resumes, as a validator restarting from its ledger.
      this.#rootFloor = slot;
      this.#reads.clear();
      this.#engine.advance(this.#clock.engineClockAt(slot));
      this.#blockhashes.prune(this.#clock.blockHeight);
      this.#report({ op: 'clock', clock: this.#clock.mark() } satisfies LedgerChange);
    });
  }

  /** The blockhashes handed out and still valid, with the block height each was handed out at (snapshots). */
  issuedBlockhashes(): [blockhash: string, issuedAt: bigint][] {
    return this.#blockhashes.entries();
  }

  /** Brings back blockhashes handed out before a restart (restore), or forgets them all. */
  restoreBlockhashes(change: { issued: [string, bigint][] } | { expired: true }): void {
    this.#blockhashes.restore(change);
  }

  /** Why the engine could not load `elf` as a program, or null (see LedgerEngine.programProblem). */
  programProblem(elf: Uint8Array): string | null {
    return this.#engine.programProblem(elf);
  }

  minimumBalanceForRentExemption(dataLength: number): Promise<bigint> {
    return this.#engine.minimumBalanceForRentExemption(dataLength);
  }

  /** The fee this transaction's fee payer is charged: per-signature base fee plus priority fee, by the engine's rules. */
  feeFor(tx: VersionedTransaction): bigint {
    return transactionFee(tx, this.#engine.feeRules());
  }

  /** The runtime behind this ledger (`bankrun`, `litesvm`). */
  get engineName(): string {
    return this.#engine.name;
  }

  /**
   * Executes and commits `tx` in the current slot, or in the next one when the current slot is
   * full. Signatures and blockhash must already have been checked; a failed transaction is
   * returned with its error, never thrown. `commit` runs before any other ledger call can, in one
   * atomic unit of changes with the ledger's own report: the caller records the outcome there, so
   * that a journal never holds the one without the other. `bytes`, the signed wire form of `tx`
   * when the caller holds it, spares serializing it again.
   *
   * With `preflight`, the transaction is simulated first, as `sendTransaction` without
   * `skipPreflight` does: one whose simulation fails is not executed and never lands (no fee, no
   * seat in a slot); its result carries the simulation's error and logs.
   */
  async process(
    tx: VersionedTransaction,
    commit?: (result: LedgerTransaction) => void,
    bytes?: Uint8Array,
    options: { preflight?: boolean } = {},
  ): Promise<LedgerTransaction> {
    return this.#exclusive(() => this.#process(tx, commit, bytes ?? tx.serialize(), options.preflight === true));
  }

  async #process(
    tx: VersionedTransaction,
    commit: ((result: LedgerTransaction) => void) | undefined,
    bytes: Uint8Array,
    preflight: boolean,
  ): Promise<LedgerTransaction> {
    // As a cluster does: a transaction whose blockhash aged out or was expired while it waited (in a
    // held or slow relay queue) is dropped unexecuted: BlockhashNotFound, no fee, no seat in a slot.
    // (The nonce account is read only for a blockhash this ledger does not know: no await on the common path.)
    let refusal: EngineExecution | null = this.isBlockhashValid(tx.message.recentBlockhash) || (await this.isTransactionRecent(tx.message)) ? null : DROPPED;
    if (refusal === null && preflight) {
      const simulation = await this.#engine.simulate({ tx, bytes });
      if (simulation.error !== null) refusal = simulation;
    }
    if (refusal === null && this.#clock.isFull()) this.#moveTo(this.#clock.slot + 1n, 1n);
    // Every account the transaction names, in the runtime's order: its static keys, then what its lookup tables load in this slot.
    const { message } = tx;
    const loaded =
      message.version === 'legacy' || message.addressTableLookups.length === 0
        ? NO_LOADED_ADDRESSES
        : ((await loadedAddressesOf(message, this.#clock.slot, (address) => this.#reads.read(address))) ?? NO_LOADED_ADDRESSES);
    const keys =
      loaded.writable.length + loaded.readonly.length === 0
        ? tx.message.staticAccountKeys
        : [...tx.message.staticAccountKeys, ...loaded.writable, ...loaded.readonly];
    if (refusal === null) {
      this.#clock.seat();
      // Only what it may write: a program or sysvar it names is not the ledger's to scan (getSupply,
      // getProgramAccounts) nor to put back on reset, and after a restart it would not be known.
      keys.forEach((key, index) => {
        if (tx.message.isAccountWritable(index) && !RESERVED_ACCOUNT_KEYS.has(addressOf(key))) this.#written.add(addressOf(key));
      });
    }
    // Through the read cache (the policy check has usually just read them), which keeps these until the commit.
    const before = await Promise.all(keys.map((key) => this.#reads.read(key)));
    const fee = this.feeFor(tx);
    const execution = refusal ?? (await this.#engine.execute({ tx, bytes }));
    const dropped = refusal !== null;
    const slot = this.#clock.slot;
    const after = dropped ? before : await this.#reads.behind(() => this.#reads.readBack(keys, before, (index) => tx.message.isAccountWritable(index)));
    const result = await this.#reads.behind(() =>
      transactionRecord({ tx, keys, loaded, slot, blockTime: this.blockTime(slot), fee, execution, before, after, ran: !dropped }, this.#reads),
    );
    this.#unit(() => {
      if (!dropped) {
        this.#reads.commit(keys, after);
        if (this.#options.changes?.recording)
          this.#report({ op: 'write', accounts: writtenAccountsOf(tx, keys, after), clock: this.#clock.mark() } satisfies LedgerChange);
      }
      commit?.(result);
    });
    if (this.#options.events?.listening('transaction') && landedInBlock(result))
      this.#options.events.emit('transaction', { transaction: result, written: keys.filter((_, index) => tx.message.isAccountWritable(index)).map(addressOf) });
    return result;
  }

  /** Runs `work` as one unit of changes (one journal entry) when changes are reported. */
  #unit(work: () => void): void {
    if (this.#options.changes) this.#options.changes.unit(work);
    else work();
  }

  /** Executes `tx` without committing; see {@link process} for `bytes`. */
  async simulate(tx: VersionedTransaction, bytes?: Uint8Array): Promise<SimulationResult> {
    return this.#exclusive(async () => simulationResult(await this.#engine.simulate({ tx, bytes: bytes ?? tx.serialize() })));
  }

  /**
   * Executes `tx` without committing and answers what a validator's simulation reports of it
   * (rpc.rs simulate_transaction, Agave 4.1): its accounts in the runtime's order (static keys, then
   * what its lookup tables load) with their balances and token balances before and after, the fee,
   * the bytes of account data it loaded, and the state after it of each of `addresses` that is one
   * of its accounts (null for the rest). On an engine that reports no post-simulation states
   * (bankrun), `after` is null.
   */
  async simulateDetailed(tx: VersionedTransaction, bytes: Uint8Array, addresses: readonly PublicKey[] = []): Promise<DetailedSimulation> {
    return this.#exclusive(async () => {
      const { message } = tx;
      const loaded =
        message.version === 'legacy' || message.addressTableLookups.length === 0
          ? NO_LOADED_ADDRESSES
          : ((await loadedAddressesOf(message, this.#clock.slot, (address) => this.#reads.read(address))) ?? NO_LOADED_ADDRESSES);
      const keys = [...message.staticAccountKeys, ...loaded.writable, ...loaded.readonly];
      const before = await Promise.all(keys.map((key) => this.#reads.read(key)));
      const simulated = await this.#engine.simulateAccounts({ tx, bytes }, keys);
      const execution = simulated?.execution ?? (await this.#engine.simulate({ tx, bytes }));
      const after = simulated?.accounts ?? null;
      const named = new Map(keys.map((key, index) => [addressOf(key), index]));
      const requested = addresses.map((address) => {
        const index = named.get(addressOf(address));
        return index === undefined || execution.error !== null ? null : after ? (after[index] ?? null) : (before[index] ?? null);
      });
      return {
        result: simulationResult(execution),
        keys,
        loaded,
        before,
        after,
        fee: this.feeFor(tx),
        preTokenBalances: await this.#reads.tokenBalances(before),
        postTokenBalances: after ? await this.#reads.tokenBalances(after) : null,
        loadedAccountsDataSize: await this.#loadedDataSize(before),
        requested,
      };
    });
  }

  /** The account data a transaction loads, as the runtime counts it: each account's, and an upgradeable program's program data too. */
  async #loadedDataSize(accounts: readonly (LedgerAccount | null)[]): Promise<number> {
    let size = 0;
    for (const account of accounts) {
      if (!account) continue;
      size += account.data.length;
      const { data } = account;
      if (account.executable && data.length >= 36 && data[0] === 2 && account.owner.toBase58() === 'BPFLoaderUpgradeab1e11111111111111111111111') {
        size += (await this.#reads.read(new PublicKey(data.subarray(4, 36))))?.data.length ?? 0;
      }
    }
    return size;
  }

  /**
   * Executes `tx` without committing and answers what `addresses` would hold after it (the relay's
   * rule F3 reads the fee payer's loss there), or null when the engine cannot tell.
   */
  async simulateAccounts(
    tx: VersionedTransaction,
    bytes: Uint8Array,
    addresses: PublicKey[],
  ): Promise<{ result: SimulationResult; accounts: (LedgerAccount | null)[] } | null> {
    return this.#exclusive(async () => {
      const simulated = await this.#engine.simulateAccounts({ tx, bytes }, addresses);
      return simulated && { result: simulationResult(simulated.execution), accounts: simulated.accounts };
    });
  }

  /** Decimals of a mint, read once and cached: a mint's decimals never change. */
  mintDecimals(mint: string): Promise<number | null> {
    return this.#reads.mintDecimals(mint);
  }

  /** Every address a processed transaction or setAccount may have changed since the last forgetWrites(). */
  writtenAccounts(): string[] {
    return [...this.#written];
  }

  /**
   * Every address that may hold an account: the runtime's own (builtins, sysvars, the shipped
   * programs and mints), the genesis accounts and every address written since (getProgramAccounts
   * and the other scans, which find what a validator's find).
   */
  knownAddresses(): string[] {
    const known = new Set([...RUNTIME_ADDRESSES, ...this.#options.genesis.map(({ address }) => addressOf(address))]);
    for (const address of this.#written) known.add(address);
    return [...known];
  }

  forgetWrites(): void {
    this.#written.clear();
    this.#report({ op: 'forget' } satisfies LedgerChange);
  }

  close(): Promise<void> {
    return this.#engine.close();
  }

  #moveTo(slot: bigint, blocks: bigint): void {
    // A new slot pays fees to the collector and updates sysvars: cached reads may be stale.
    this.#reads.clear();
    this.#clock.moveTo(slot, blocks);
    this.#engine.advance(this.#clock.engineClockAt(slot));
    this.#blockhashes.prune(this.#clock.blockHeight);
    const waiting = this.#slotWaiters.filter((waiter) => waiter.after < slot);
    this.#slotWaiters = this.#slotWaiters.filter((waiter) => waiter.after >= slot);
    for (const waiter of waiting) waiter.wake();
    if (this.#options.events?.listening('slot')) this.#options.events.emit('slot', { slot });
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(work, work);
    this.#lock = run.catch(() => undefined);
    return run;
  }
}
