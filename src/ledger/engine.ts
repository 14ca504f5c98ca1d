import type { PublicKey, VersionedTransaction } from '@solana/web3.js';

/** An account as the ledger stores it. */
export interface LedgerAccount {
  lamports: bigint;
  owner: PublicKey;
  data: Uint8Array;
  executable: boolean;
}

/** What an engine reports after executing a transaction. A failure is a value, never a throw. */
export interface EngineExecution {
  /** The runtime's error text (Solana's `TransactionError` Display form), or null on success. */
  error: string | null;
  logs: string[];
  computeUnitsConsumed: bigint;
  returnData: { programId: string; data: Uint8Array } | null;
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
 * behind it, so another engine (LiteSVM, for example) is one new file.
 *
 * Blockhash validity, slots and the clock are owned by {@link Ledger}, not by the engine: an
 * engine executes what it is given and moves to the slot it is told.
 */
export interface LedgerEngine {
  /** The engine's current blockhash. */
  currentBlockhash(): Promise<string>;
  getAccount(address: PublicKey): Promise<LedgerAccount | null>;
  setAccount(address: PublicKey, account: LedgerAccount): void;
  /**
   * Executes and commits a transaction whose signatures and recent blockhash the caller has
   * already checked. The engine may rebind the blockhash to one it currently accepts.
   */
  execute(tx: VersionedTransaction): Promise<EngineExecution>;
  /** Executes without committing. */
  simulate(tx: VersionedTransaction): Promise<EngineExecution>;
  /** Moves the engine to `clock.slot` (never backwards) and writes `clock` into its Clock sysvar as given. */
  advance(clock: EngineClock): void;
  /** Lamports per signature and rent parameters. */
  lamportsPerSignature(): bigint;
  minimumBalanceForRentExemption(dataLength: number): Promise<bigint>;
  close(): Promise<void>;
}

/** Seeds an engine at genesis. */
export interface GenesisAccount {
  address: PublicKey;
  account: LedgerAccount;
}

export type EngineFactory = (genesis: GenesisAccount[]) => Promise<LedgerEngine>;
