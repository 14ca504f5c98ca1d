import type { PublicKey } from '@solana/web3.js';
import type { EventSink } from '../../base/events/emitter.ts';
import type { ChangeFeed } from '../state/change-feed.ts';
import type { EngineClock, EngineExecution, EngineFactory, EngineSettings, GenesisAccount, LedgerAccount } from './engine.ts';
import type { LoadedAddresses } from './loaded-addresses.ts';
import type { TransactionErrorJson } from './transaction-error.ts';

/** What the Ledger (ledger.ts) takes (its options) and gives (its clock, blockhashes, transactions, simulations). */

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
  /**
   * Whether it landed in a block: it ran and either succeeded or paid its fee. False for one
   * dropped (its blockhash expired), refused by preflight, or whose fee payer could not pay: such
   * a transaction cost nothing (`fee` 0). Absent from records of earlier versions.
   */
  landed?: boolean;
  signature: string;
  slot: bigint;
  blockTime: number;
  err: TransactionErrorJson | null;
  logs: string[];
  computeUnitsConsumed: bigint;
  fee: bigint;
  /** Every account it names: its static keys, then those its lookup tables loaded (`loadedAddresses`). */
  accountKeys: string[];
  /** What its lookup tables loaded, writable then read-only; absent from records of earlier versions. */
  loadedAddresses?: { writable: string[]; readonly: string[] };
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

/** What {@link Ledger.simulateDetailed} reports: a validator's simulation of a transaction, as its RPC answers it. */
export interface DetailedSimulation {
  result: SimulationResult;
  /** Its accounts in the runtime's order: static keys, then those its lookup tables load. */
  keys: PublicKey[];
  loaded: LoadedAddresses;
  before: (LedgerAccount | null)[];
  /** Each account after it, or null when the engine reports no post-simulation states. */
  after: (LedgerAccount | null)[] | null;
  fee: bigint;
  preTokenBalances: TokenBalanceSnapshot[];
  postTokenBalances: TokenBalanceSnapshot[] | null;
  loadedAccountsDataSize: number;
  /** The state after it of each address asked for that is one of its accounts; null for the others, and for all when it failed. */
  requested: (LedgerAccount | null)[];
}

export interface LedgerOptions {
  /** Creates the runtime (`createBankrunEngine`, `createLiteSvmEngine`). */
  engine: EngineFactory;
  /** Accounts present at genesis. */
  genesis: GenesisAccount[];
  /** What solana-test-validator's genesis flags change in the runtime (epochs, compute budget, features). Default: mainnet's. */
  settings?: EngineSettings;
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
   * How many slots behind the current one the confirmed and finalized commitments stand (see
   * {@link CommitmentDepths}). Default {@link INSTANT_COMMITMENTS}: every slot is final as it is made.
   */
  commitmentDepths?: CommitmentDepths;
  /**
   * Hears every change the ledger makes (part `ledger`, see ledger-changes.ts); a processed
   * transaction's report and its caller's `commit` form one atomic unit. Default: nobody.
   */
  changes?: ChangeFeed;
  /** Where it tells of landed transactions and direct account writes ({@link LedgerEvents}). Default: nobody. */
  events?: EventSink<LedgerEvents>;
}

/**
 * What the ledger tells whoever listens (PubSub's logs, account and program subscriptions), after
 * the change is made, as events of the emulator's one emitter (src/domain/events.ts):
 * - `transaction`: a transaction it executed and that landed in a block, with the addresses it may
 *   have written;
 * - `accounts`: accounts written directly (test controls, restore, deploys);
 * - `slot`: a new slot opened.
 */
export interface LedgerEvents {
  transaction: { transaction: LedgerTransaction; written: string[] };
  accounts: { written: string[] };
  /** A new slot opened (a transaction filled the last, a warp, a tick, an expiry). */
  slot: { slot: bigint };
}

/** The commitment levels a read or a wait can ask for, weakest first. */
export type CommitmentLevel = 'processed' | 'confirmed' | 'finalized';

/**
 * Slots behind the current (processed) one that the confirmed and finalized commitments stand.
 * A lone validator votes on each slot in the next (confirmed: 1 behind) and roots a slot once
 * 32 votes sit on it in its tower (finalized: 32 behind): {@link VALIDATOR_COMMITMENTS}.
 */
export interface CommitmentDepths {
  confirmed: number;
  finalized: number;
}

/** Everything final as soon as it is made: the deterministic default. */
export const INSTANT_COMMITMENTS: CommitmentDepths = { confirmed: 0, finalized: 0 };
/** As solana-test-validator stands: confirmed a slot behind, rooted 32 behind. */
export const VALIDATOR_COMMITMENTS: CommitmentDepths = { confirmed: 1, finalized: 32 };

/** Transactions a slot holds by default (see LedgerOptions.transactionsPerSlot). */
export const DEFAULT_TRANSACTIONS_PER_SLOT = 64;
