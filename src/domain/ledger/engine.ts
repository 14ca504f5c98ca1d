import type { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { FeeRules } from './compute-budget.ts';
import type { TransactionErrorJson } from './transaction-error.ts';

/** An account as the ledger stores it. */
export interface LedgerAccount {
  lamports: bigint;
  owner: PublicKey;
  data: Uint8Array;
  executable: boolean;
  /**
   * The rent epoch it was stored with, where it came with one (a dump's `rentEpoch`, a validator's
   * genesis account) and no transaction has written it since; absent: u64::MAX, what a validator
   * reports for an account it made or rewrote (rent-exempt).
   */
  rentEpoch?: bigint;
}

/**
 * An instruction a program invoked (a cross-program invocation), as Solana's transaction status
 * meta records it: indexes into the transaction's account keys, and the depth it ran at (2 for a
 * CPI made by a top-level instruction).
 */
export interface InnerInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number | null;
}

/** The inner instructions of one top-level instruction (`index`); only instructions that invoked something are listed. */
export interface InnerInstructions {
  index: number;
  instructions: InnerInstruction[];
}

/** What an engine reports after executing a transaction. A failure is a value, never a throw. */
export interface EngineExecution {
  /** The runtime's error in the RPC's JSON form (`"BlockhashNotFound"`, `{ InstructionError: [0, { Custom: 1 }] }`), or null on success. */
  error: TransactionErrorJson | null;
  logs: string[];
  computeUnitsConsumed: bigint;
  returnData: { programId: string; data: Uint8Array } | null;
  /**
   * The cross-program invocations, per top-level instruction, or null when the engine does not
   * record them (the RPC then says null, as a validator with recording off does).
   */
  innerInstructions: InnerInstructions[] | null;
}

/**
 * A transaction as the engine receives it: decoded (web3.js), and the signed wire bytes the
 * signatures cover, so that an engine that takes bytes never serializes it again.
 */
export interface EngineTransaction {
  tx: VersionedTransaction;
  /** The wire form of `tx`, signatures included. */
  bytes: Uint8Array;
}

/** Solana's Clock sysvar, as the {@link Ledger} works it out for each slot (epochs from epoch-schedule.ts). */
export interface EngineClock {
  slot: bigint;
  /** Unix time of the first slot of `epoch`. */
  epochStartTimestamp: bigint;
  epoch: bigint;
  leaderScheduleEpoch: bigint;
  unixTimestamp: bigint;
}

/**
 * The one seam between the emulator and a Solana runtime. Everything engine-specific lives
 * behind it: solana-bankrun (`bankrun-engine.ts`) and LiteSVM (`litesvm-engine.ts`).
 *
 * Blockhash validity, slots and the clock are owned by {@link Ledger}, not by the engine: an
 * engine executes what it is given and moves to the slot it is told.
 */
export interface LedgerEngine {
  /** Which runtime this is, for the banner and /health (`bankrun`, `litesvm`). */
  readonly name: string;
  /**
   * Whether a program can be deployed or replaced while the engine runs (direct writes of a
   * loader's accounts): LiteSVM reloads a program when its accounts are written; bankrun's program
   * cache (agave 1.18) keeps the code it first loaded, so it takes programs at genesis only.
   */
  readonly deploysPrograms: boolean;
  /**
   * Whether the engine's bank checks its capitalization against its accounts at each new slot
   * (bankrun's agave 1.18 panics on a mismatch): direct writes must then keep the ledger's total,
   * and a restored state's burned fees go back to the reservoir (src/domain/ledger/ledger.ts, setAccounts).
   */
  readonly checksCapitalization: boolean;
  /** The engine's current blockhash. */
  currentBlockhash(): Promise<string>;
  getAccount(address: PublicKey): Promise<LedgerAccount | null>;
  setAccount(address: PublicKey, account: LedgerAccount): void;
  /**
   * Executes and commits a transaction whose signatures, recent blockhash and uniqueness the
   * caller has already checked. The engine may rebind the blockhash to one it currently accepts.
   */
  execute(transaction: EngineTransaction): Promise<EngineExecution>;
  /** Executes without committing. */
  simulate(transaction: EngineTransaction): Promise<EngineExecution>;
  /**
   * Executes without committing, and answers the states `addresses` would be left in (absent: null),
   * or null when the engine cannot tell (bankrun's simulation reports no accounts).
   */
  simulateAccounts(transaction: EngineTransaction, addresses: PublicKey[]): Promise<{ execution: EngineExecution; accounts: (LedgerAccount | null)[] } | null>;
  /** Moves the engine to `clock.slot` (never backwards) and writes `clock` into its Clock sysvar as given. */
  advance(clock: EngineClock): void;
  /** How the runtime charges fees: lamports per signature, and how it reserves compute units by default. */
  feeRules(): FeeRules;
  minimumBalanceForRentExemption(dataLength: number): Promise<bigint>;
  /**
   * Why the runtime could not load `elf` as a program (its ELF loader and verifier), or null when it
   * can: run before a deploy swaps the code. Null where the engine cannot tell before running it.
   */
  programProblem(elf: Uint8Array): string | null;
  close(): Promise<void>;
}

/** Seeds an engine at genesis. */
export interface GenesisAccount {
  address: PublicKey;
  account: LedgerAccount;
}

/**
 * What solana-test-validator's genesis flags change in the runtime, where an engine can honour
 * them: `--slots-per-epoch` (the EpochSchedule sysvar), `--compute-unit-limit` (the most compute
 * units a transaction may ask for) and `--deactivate-feature`. Absent: mainnet's.
 */
export interface EngineSettings {
  slotsPerEpoch?: bigint;
  computeUnitLimit?: bigint;
  /** Feature ids (base58) to turn off; every other feature is on, as on a test validator. */
  deactivatedFeatures?: readonly string[];
}

export type EngineFactory = (genesis: GenesisAccount[], settings?: EngineSettings) => Promise<LedgerEngine>;
