// Over 250 lines: the Ledger is the one seam over the engine; clock, blockhashes, accounts and execution share its private state.
import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import type { ChangeFeed, ChangeReporter } from '../state/change-feed.ts';
import { computeFee } from './compute-budget.ts';
import { BlockhashRegistry } from './blockhash-registry.ts';
import type { EngineClock, EngineExecution, EngineFactory, GenesisAccount, LedgerAccount, LedgerEngine } from './engine.ts';
import { epochOf } from './epoch-schedule.ts';
import { decodeMint, decodeTokenAccount } from './token-accounts.ts';
import type { TransactionErrorJson } from './transaction-error.ts';
import { addressOf, encodeBase58 } from '../crypto/base58.ts';
import { reportedAccount, type ClockMark, type LedgerChange } from './ledger-changes.ts';


/** The ledger's clock: the Clock sysvar the engine holds (epochs from epoch-schedule.ts), and the block height. */
export interface LedgerClock extends EngineClock {
  blockHeight: bigint;
}

export interface BlockhashInfo {
  blockhash: string;
  lastValidBlockHeight: bigint;
}

export interface TokenBalanceSnapshot {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  amount: bigint;
  decimals: number;
}

/** One executed transaction, with everything the RPC and the history index report about it. */
export interface LedgerTransaction {
  signature: string;
  slot: bigint;
  blockTime: number;
  err: TransactionErrorJson | null;
  logs: string[];
  computeUnitsConsumed: bigint;
  fee: bigint;
  accountKeys: string[];
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalanceSnapshot[];
  postTokenBalances: TokenBalanceSnapshot[];
  returnData: EngineExecution['returnData'];
  /** Cross-program invocations per top-level instruction; null when the engine does not record them (bankrun). */
  innerInstructions: EngineExecution['innerInstructions'];
}

export interface SimulationResult {
  err: TransactionErrorJson | null;
  logs: string[];
  computeUnitsConsumed: bigint;
  returnData: EngineExecution['returnData'];
  innerInstructions: EngineExecution['innerInstructions'];
}

export interface LedgerOptions {
  /** Creates the runtime (`createBankrunEngine`, `createLiteSvmEngine`). */
  engine: EngineFactory;
  /** Accounts present at genesis. */
  genesis: GenesisAccount[];
  /** Unix time of slot 0. Default: 2026-01-01T00:00:00Z, so runs are reproducible. */
  genesisTime: Date;
  /** Wall time a slot represents when deriving block times. Default: 400 ms. */
  slotMs: number;
  /**
   * The account that pays for, and takes back, every lamport setAccount adds or removes, so that
   * direct writes never change the ledger's total: bankrun checks the total against its
   * capitalization whenever it moves to a new slot, and aborts the process on a mismatch.
   * Default none: setAccount then refuses writes that change the total.
   */
  reservoir?: PublicKey;
  /**
   * How many transactions a slot holds before the next one opens a new slot. Several per slot, as
   * on a cluster: a slot costs the engine far more than a transaction (bankrun keeps every slot's
   * bank, ~130 KB, for good), and a blockhash's 150 blocks then outlive 150 transactions.
   * Default {@link DEFAULT_TRANSACTIONS_PER_SLOT}; 1 gives every transaction its own slot.
   */
  transactionsPerSlot?: number;
  /**
   * Hears every change the ledger makes (part `ledger`, see ledger-changes.ts); a processed
   * transaction's report and its caller's `commit` form one atomic unit. Default: nobody.
   */
  changes?: ChangeFeed;
}

const FIRST_SLOT = 1n;
/** Transactions a slot holds by default (see LedgerOptions.transactionsPerSlot). */
export const DEFAULT_TRANSACTIONS_PER_SLOT = 64;

/**
 * The emulator's ledger: an engine plus the things the emulator owns itself, so that they are
 * deterministic and engine-independent: slots, block height, the clock, blockhash validity (its
 * rule is BlockhashRegistry's), fees and the pre/post balances each transaction reports.
 *
 * Slots hold several transactions, as a cluster's blocks do, and the rule is the ledger's, not an
 * engine's: a transaction lands in the current slot until that slot holds `transactionsPerSlot`
 * of them; the next one opens the next slot. A warp forward or an expiry opens a slot too (empty: the next
 * transaction lands in it). So each transaction is in exactly one slot, slots never go back, and
 * within a slot transactions keep the order they were processed in. Block height counts slots,
 * and blockhash validity counts block height (150 blocks, never transactions).
 */
export class Ledger {
  readonly #engine: LedgerEngine;
  readonly #options: LedgerOptions;
  readonly #blockhashes = new BlockhashRegistry();
  readonly #decimals = new Map<string, number>();
  /** Addresses written since creation or the last forgetWrites() (reset and the state file read them). */
  readonly #written = new Set<string>();
  readonly #reads = new Map<string, Promise<LedgerAccount | null>>();
  #slot = FIRST_SLOT;
  #blockHeight = FIRST_SLOT;
  /** Transactions processed in the current slot. */
  #inSlot = 0;
  readonly #perSlot: number;
  #timeOffset = 0n;
  /** Settles when the transaction being processed (and every one queued behind it) is done; null when none is. */
  #processing: Promise<void> | null = null;
  #lock: Promise<unknown> = Promise.resolve();
  readonly #report: ChangeReporter;

  private constructor(engine: LedgerEngine, options: LedgerOptions) {
    this.#engine = engine;
    this.#options = options;
    this.#perSlot = options.transactionsPerSlot ?? DEFAULT_TRANSACTIONS_PER_SLOT;
    this.#report = options.changes?.reporter('ledger') ?? (() => undefined);
  }

  static async create(options: LedgerOptions): Promise<Ledger> {
    const perSlot = options.transactionsPerSlot ?? DEFAULT_TRANSACTIONS_PER_SLOT;
    if (!Number.isSafeInteger(perSlot) || perSlot < 1) throw new RangeError(`transactionsPerSlot must be a whole number of at least 1, not ${perSlot}`);
    const ledger = new Ledger(await options.engine(options.genesis), options);
    ledger.#engine.advance(ledger.#clockAt(ledger.#slot + 1n));
    ledger.#slot += 1n;
    ledger.#blockHeight += 1n;
    return ledger;
  }

  /** Genesis hash stand-in: stable for a given genesis time. */
  get genesisHash(): string {
    const seed = new Uint8Array(32);
    new DataView(seed.buffer).setBigUint64(0, BigInt(this.#options.genesisTime.getTime()));
    return encodeBase58(seed);
  }

  clock(): LedgerClock {
    return { ...this.#clockAt(this.#slot), blockHeight: this.#blockHeight };
  }

  blockTime(slot: bigint): number {
    return Number(this.#unixAt(slot));
  }

  async latestBlockhash(): Promise<BlockhashInfo> {
    const blockhash = await this.#engine.currentBlockhash();
    const fresh = !this.#blockhashes.has(blockhash);
    const lastValidBlockHeight = this.#blockhashes.issue(blockhash, this.#blockHeight);
    if (fresh) this.#report({ op: 'issue', blockhash, at: this.#blockHeight } satisfies LedgerChange);
    return { blockhash, lastValidBlockHeight };
  }

  /** True when `blockhash` was handed out by this ledger and has not aged out or been expired. */
  isBlockhashValid(blockhash: string): boolean {
    return this.#blockhashes.isValid(blockhash, this.#blockHeight);
  }

  /** Invalidates every blockhash handed out so far and moves to a new slot with a new one. */
  async expireBlockhashes(): Promise<BlockhashInfo> {
    return this.#exclusive(async () => {
      this.#blockhashes.expireAll();
      this.#report({ op: 'expire' } satisfies LedgerChange);
      this.#moveTo(this.#slot + 1n, 1n);
      this.#report({ op: 'clock', clock: this.#clockMark() } satisfies LedgerChange);
      return this.latestBlockhash();
    });
  }

  /** Warps forward by `slots` (each slot one block), or to `slot`, and optionally sets the clock. */
  async warp(options: { slots?: number; slot?: bigint; unixTimestamp?: bigint }): Promise<LedgerClock> {
    return this.#exclusive(async () => {
      const target = options.slot ?? this.#slot + BigInt(options.slots ?? 0);
      if (target < this.#slot) throw new RangeError(`cannot warp back from slot ${this.#slot} to ${target}`);
      if (options.unixTimestamp !== undefined) {
        this.#timeOffset += options.unixTimestamp - this.#unixAt(target);
      }
      if (target > this.#slot) this.#moveTo(target, target - this.#slot);
      else {
        this.#reads.clear();
        this.#engine.advance(this.#clockAt(this.#slot));
      }
      this.#report({ op: 'clock', clock: this.#clockMark() } satisfies LedgerChange);
      return this.clock();
    });
  }

  /**
   * An account's current state. Reads are cached until the next write (a processed transaction, a
   * slot change, setAccounts): every write goes through this class, so the cache is never stale,
   * and concurrent readers of one account share a single engine round trip. Callers must not
   * mutate what they get.
   */
  getAccount(address: PublicKey): Promise<LedgerAccount | null> {
    return this.#read(address);
  }

  #read(address: PublicKey): Promise<LedgerAccount | null> {
    const key = addressOf(address);
    let read = this.#reads.get(key);
    if (!read) {
      read = this.#engine.getAccount(address);
      this.#reads.set(key, read);
      read.catch(() => {
        if (this.#reads.get(key) === read) this.#reads.delete(key);
      });
    }
    return read;
  }

  /** Writes one account as given (0 lamports removes it); see {@link setAccounts}. */
  setAccount(address: PublicKey, account: LedgerAccount): Promise<void> {
    return this.setAccounts([{ address, account }]);
  }

  /**
   * Writes accounts as given (0 lamports removes one), between transactions, never during one. A
   * write may be a function of the account's current state (null when absent), to update it.
   * The lamports they gain or lose in all are taken from or given to the reservoir, so that the
   * ledger's total stays what the engine expects. Throws a RangeError when the reservoir is
   * missing or cannot cover the difference; nothing is written then.
   */
  async setAccounts(writes: { address: PublicKey; account: LedgerAccount | ((current: LedgerAccount | null) => LedgerAccount) }[]): Promise<void> {
    return this.#exclusive(async () => {
      let delta = 0n;
      const final = new Map<string, { address: PublicKey; account: LedgerAccount }>();
      const current = async (address: PublicKey) => final.get(addressOf(address))?.account ?? (await this.#engine.getAccount(address));
      for (const write of writes) {
        const before = await current(write.address);
        const account = typeof write.account === 'function' ? write.account(before) : write.account;
        delta += account.lamports - (before?.lamports ?? 0n);
        final.set(addressOf(write.address), { address: write.address, account });
      }
      if (delta !== 0n) {
        const { reservoir } = this.#options;
        if (!reservoir) throw new RangeError(`setAccount would change the ledger's total by ${delta} lamports and no reservoir is configured`);
        const balance = await current(reservoir);
        if (!balance || balance.lamports < delta) {
          throw new RangeError(`the reservoir ${addressOf(reservoir)} holds ${balance?.lamports ?? 0n} lamports, not enough for ${delta} more`);
        }
        final.set(addressOf(reservoir), { address: reservoir, account: { ...balance, lamports: balance.lamports - delta } });
      }
      this.#reads.clear();
      for (const [key, { address, account }] of final) {
        this.#written.add(key);
        this.#decimals.delete(key);
        this.#engine.setAccount(address, account);
      }
      if (this.#options.changes?.recording) {
        this.#report({ op: 'write', accounts: [...final].map(([key, { account }]) => [key, reportedAccount(account)]) } satisfies LedgerChange);
      }
    });
  }

  /** Reads accounts between transactions and writes, never during one (the state file's snapshot: what it reads is journaled already). */
  readAccounts(addresses: PublicKey[]): Promise<(LedgerAccount | null)[]> {
    return this.#exclusive(() => Promise.all(addresses.map((address) => this.#engine.getAccount(address))));
  }

  /** Puts the clock where a snapshot or journal left it (restore): the slot never goes back. */
  restoreClock(clock: ClockMark): Promise<void> {
    return this.#exclusive(async () => {
      const slot = clock.slot > this.#slot ? clock.slot : this.#slot;
      this.#timeOffset += clock.unixTimestamp - this.#unixAt(slot);
      this.#reads.clear();
      // A slot restored to is open again: it takes transactions until it holds transactionsPerSlot.
      if (slot !== this.#slot) this.#inSlot = 0;
      this.#slot = slot;
      this.#blockHeight = clock.blockHeight;
      this.#engine.advance(this.#clockAt(slot));
      this.#blockhashes.prune(this.#blockHeight);
      this.#report({ op: 'clock', clock: this.#clockMark() } satisfies LedgerChange);
    });
  }

  /** The blockhashes handed out and still valid, with the block height each was handed out at (snapshots). */
  issuedBlockhashes(): [blockhash: string, issuedAt: bigint][] {
    return this.#blockhashes.entries();
  }

  /** Brings back blockhashes handed out before a restart (restore), or forgets them all. */
  restoreBlockhashes(change: { issued: [string, bigint][] } | { expired: true }): void {
    if ('expired' in change) {
      this.#blockhashes.expireAll();
      this.#report({ op: 'expire' } satisfies LedgerChange);
      return;
    }
    for (const [blockhash, at] of change.issued) {
      this.#blockhashes.issue(blockhash, at);
      this.#report({ op: 'issue', blockhash, at } satisfies LedgerChange);
    }
  }

  minimumBalanceForRentExemption(dataLength: number): Promise<bigint> {
    return this.#engine.minimumBalanceForRentExemption(dataLength);
  }

  /** The fee this transaction's fee payer is charged: per-signature base fee plus priority fee, by the engine's rules. */
  feeFor(tx: VersionedTransaction): bigint {
    const keys = tx.message.staticAccountKeys;
    const instructions = tx.message.compiledInstructions;
    return computeFee({
      signatures: tx.message.header.numRequiredSignatures,
      rules: this.#engine.feeRules(),
      programIds: instructions.map((ix) => addressOf(keys[ix.programIdIndex] ?? PublicKey.default)),
      instructionData: instructions.map((ix) => ix.data),
    });
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
   */
  async process(tx: VersionedTransaction, commit?: (result: LedgerTransaction) => void, bytes?: Uint8Array): Promise<LedgerTransaction> {
    const run = this.#exclusive(() => this.#process(tx, commit, bytes));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.#processing = settled;
    void settled.then(() => {
      if (this.#processing === settled) this.#processing = null;
    });
    return run;
  }

  async #process(tx: VersionedTransaction, commit: ((result: LedgerTransaction) => void) | undefined, bytes: Uint8Array | undefined): Promise<LedgerTransaction> {
    if (this.#inSlot >= this.#perSlot) this.#moveTo(this.#slot + 1n, 1n);
    this.#inSlot += 1;
    const keys = tx.message.staticAccountKeys;
    for (const key of keys) this.#written.add(addressOf(key));
    // Through the read cache: the relay's policy check has usually just read most of them. From
    // here to the commit the cache holds every key's state before the transaction, so that readers
    // see the transaction's writes only once its outcome is recorded (see #commitReads).
    const before = await Promise.all(keys.map((key) => this.#read(key)));
    const fee = this.feeFor(tx);
    const execution = await this.#engine.execute({ tx, bytes: bytes ?? tx.serialize() });
    try {
      return await this.#record(tx, { keys, before, fee, execution }, commit);
    } catch (error) {
      // Executed but not recorded: the cached state from before it is stale now.
      this.#reads.clear();
      throw error;
    }
  }

  async #record(
    tx: VersionedTransaction,
    { keys, before, fee, execution }: { keys: PublicKey[]; before: (LedgerAccount | null)[]; fee: bigint; execution: EngineExecution },
    commit: ((result: LedgerTransaction) => void) | undefined,
  ): Promise<LedgerTransaction> {
    const after = await Promise.all(keys.map((key) => this.#engine.getAccount(key)));
    const result: LedgerTransaction = {
      signature: encodeBase58(tx.signatures[0] ?? new Uint8Array(64)),
      slot: this.#slot,
      blockTime: this.blockTime(this.#slot),
      err: execution.error,
      logs: execution.logs,
      computeUnitsConsumed: execution.computeUnitsConsumed,
      fee,
      accountKeys: keys.map((key) => addressOf(key)),
      preBalances: before.map((account) => account?.lamports ?? 0n),
      postBalances: after.map((account) => account?.lamports ?? 0n),
      preTokenBalances: await this.#tokenBalances(before),
      postTokenBalances: await this.#tokenBalances(after),
      returnData: execution.returnData,
      innerInstructions: execution.innerInstructions,
    };
    const finish = () => {
      this.#commitReads(keys, after);
      if (this.#options.changes?.recording) {
        // Only writable accounts can have changed (programs and sysvars never are).
        const accounts = keys.flatMap((key, index): [string, ReturnType<typeof reportedAccount>][] =>
          tx.message.isAccountWritable(index) ? [[addressOf(key), reportedAccount(after[index] ?? null)]] : [],
        );
        this.#report({ op: 'write', accounts, clock: this.#clockMark() } satisfies LedgerChange);
      }
      commit?.(result);
    };
    if (this.#options.changes) this.#options.changes.unit(finish);
    else finish();
    return result;
  }

  /** Executes `tx` without committing; see {@link process} for `bytes`. */
  async simulate(tx: VersionedTransaction, bytes?: Uint8Array): Promise<SimulationResult> {
    return this.#exclusive(async () => {
      const execution = await this.#engine.simulate({ tx, bytes: bytes ?? tx.serialize() });
      return {
        err: execution.error,
        logs: execution.logs,
        computeUnitsConsumed: execution.computeUnitsConsumed,
        returnData: execution.returnData,
        innerInstructions: execution.innerInstructions,
      };
    });
  }

  /** Decimals of a mint, read once and cached: a mint's decimals never change. */
  async mintDecimals(mint: string): Promise<number | null> {
    const cached = this.#decimals.get(mint);
    if (cached !== undefined) return cached;
    const decoded = decodeMint(await this.#engine.getAccount(new PublicKey(mint)));
    if (!decoded) return null;
    this.#decimals.set(mint, decoded.decimals);
    return decoded.decimals;
  }

  /** Every address a processed transaction or setAccount may have changed since the last forgetWrites(). */
  writtenAccounts(): string[] {
    return [...this.#written];
  }

  forgetWrites(): void {
    this.#written.clear();
    this.#report({ op: 'forget' } satisfies LedgerChange);
  }

  close(): Promise<void> {
    return this.#engine.close();
  }

  async #tokenBalances(accounts: (LedgerAccount | null)[]): Promise<TokenBalanceSnapshot[]> {
    const balances: TokenBalanceSnapshot[] = [];
    for (const [accountIndex, account] of accounts.entries()) {
      const token = decodeTokenAccount(account);
      if (!token) continue;
      balances.push({
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: token.programId,
        amount: token.amount,
        decimals: (await this.mintDecimals(token.mint)) ?? 0,
      });
    }
    return balances;
  }

  /**
   * Makes a processed transaction's writes visible, in the same synchronous step as its commit
   * (records, history, the token-account index). Until then every one of its keys reads as it was
   * before the transaction (cached by #process), never as the engine already holds it: a reader
   * that saw a new account and then asked who owns it would otherwise find the index without it.
   * Only the transaction's keys can have changed; they go into the cache, as the next
   * transaction's checks read the same fee payer and accounts.
   */
  #commitReads(keys: PublicKey[], after: (LedgerAccount | null)[]): void {
    this.#reads.clear();
    keys.forEach((key, index) => this.#reads.set(addressOf(key), Promise.resolve(after[index] ?? null)));
  }

  #moveTo(slot: bigint, blocks: bigint): void {
    // A new slot pays fees to the collector and updates sysvars: cached reads may be stale.
    this.#reads.clear();
    this.#slot = slot;
    this.#inSlot = 0;
    this.#blockHeight += blocks;
    this.#engine.advance(this.#clockAt(slot));
    this.#blockhashes.prune(this.#blockHeight);
  }

  /** The Clock sysvar at `slot`: the one place its epoch fields are worked out. */
  #clockAt(slot: bigint): EngineClock {
    const { epoch, firstSlot, leaderScheduleEpoch } = epochOf(slot);
    return { slot, epochStartTimestamp: this.#unixAt(firstSlot), epoch, leaderScheduleEpoch, unixTimestamp: this.#unixAt(slot) };
  }

  #clockMark(): ClockMark {
    return { slot: this.#slot, blockHeight: this.#blockHeight, unixTimestamp: this.#unixAt(this.#slot) };
  }

  #unixAt(slot: bigint): bigint {
    const genesis = BigInt(Math.floor(this.#options.genesisTime.getTime() / 1000));
    return genesis + (slot * BigInt(this.#options.slotMs)) / 1000n + this.#timeOffset;
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(work, work);
    this.#lock = run.catch(() => undefined);
    return run;
  }
}
