import type { SolanaAccountDump } from '../../domain/fixtures/account-dumps.ts';
import type { ProgramInfo } from '../../domain/ledger/loaded-programs.ts';
import type { ProgramLoader } from '../../domain/ledger/program-accounts.ts';
import type { PublicKey } from '@solana/web3.js';
import type { QueueState } from '../../domain/relay/relay-queue.ts';
import type { AccountState } from '../../domain/ledger/account-state.ts';
import type { Fault, FaultRecord } from './faults.ts';
import type { RequestFilter, RequestRecord } from './request-journal.ts';
import type { TransactionFilter, TransactionJournalEntry } from './transaction-journal.ts';

// The test controls' public shapes: what each control takes and answers.

export interface FaucetRequest {
  address: string | PublicKey;
  /** Lamports to add (a decimal string too, as the fixtures write them). Default 1 SOL when no mint is given, else none. */
  lamports?: bigint | number | string;
  /** A mint whose mint authority is the fixture mint authority (the fixture mints, and mints made by createMint). */
  mint?: string | PublicKey;
  /** Tokens of `mint` to mint to the address's associated token account, in base units. Default 0 (the account is still created). */
  amount?: bigint | number | string;
}

export interface FaucetResult {
  address: string;
  /** The address's lamports after funding. */
  lamports: bigint;
  /** The associated token account, when a mint was given. */
  tokenAccount: string | null;
  /** Its amount in base units after funding. */
  tokenAmount: bigint | null;
}

export interface CreatedMint {
  mint: string;
  decimals: number;
  symbol: string | null;
}

/** A nonce account made by createNonceAccount: its address, authority, stored nonce (the "blockhash" a durable transaction carries) and lamports. */
export interface CreatedNonceAccount {
  address: string;
  authority: string;
  nonce: string;
  /** Its rent-exempt minimum, a decimal string. */
  lamports: string;
}

export interface ClockState {
  slot: number;
  blockHeight: number;
  unixTimestamp: number;
}

export interface WarpRequest {
  /** Slots to move forward. */
  slots?: number;
  /** A slot to move to (not before the current one). */
  slot?: number;
  /** The clock's Unix time at the slot reached; later slots keep counting from it. */
  unixTimestamp?: number;
}

import type { EmulatorSnapshot } from '../../domain/state/snapshot.ts';

export type { EmulatorSnapshot } from '../../domain/state/snapshot.ts';

/** The test controls, as methods of the emulator; every one is also a route under /__emulator. */
/** What deployProgram() takes besides the ELF. */
export interface DeployOptions {
  /** Default: the replaced program's loader, else `upgradeable`. */
  loader?: ProgramLoader;
  /** An upgradeable program's authority (base58), or null for none. Default: the replaced program's, else none. */
  upgradeAuthority?: string | PublicKey | null;
}

export interface TestControlMethods {
  /** Back to the fixtures: accounts, submissions, legacy records, history, queue, faults, journals and every registered part. */
  reset(): Promise<void>;
  /** SOL (credited directly) and/or tokens of a known mint (minted by a real MintTo into the owner's associated token account). */
  faucet(request: FaucetRequest): Promise<FaucetResult>;
  /** A new SPL Token mint whose mint authority is the fixture mint authority. */
  createMint(request: { decimals: number; symbol?: string }): Promise<CreatedMint>;
  /**
   * A durable-nonce account whose nonce authority is `authority`, made by a real CreateAccount and
   * InitializeNonceAccount; the ledger then moves to the next slot, so that it can be advanced at once.
   */
  createNonceAccount(request: { authority: string | PublicKey }): Promise<CreatedNonceAccount>;
  getAccount(address: string | PublicKey): Promise<AccountState | null>;
  /** Writes an account as is; 0 lamports removes it. */
  setAccount(address: string | PublicKey, account: AccountState): Promise<AccountState | null>;
  clock(): ClockState;
  warp(request: WarpRequest): Promise<ClockState>;
  /** Expires every blockhash handed out so far; returns the new one. */
  expireBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  queueState(): QueueState;
  pauseQueue(): QueueState;
  resumeQueue(): QueueState;
  /** Processes the oldest waiting transaction; returns the signatures processed (zero or one). */
  stepQueue(): Promise<string[]>;
  /** Processes every waiting transaction now. */
  flushQueue(): Promise<QueueState>;
  setQueueLatency(latencyMs: number): QueueState;
  /** Arms a fault for the next `count` (default 1) relays of an operation. */
  injectFault(fault: Fault): FaultRecord;
  faults(): FaultRecord[];
  clearFaults(): void;
  /** Every request with its response, oldest first. */
  requestJournal(filter?: RequestFilter): RequestRecord[];
  /** Every accepted transaction with its status, logs, compute units and fee, oldest first. */
  transactionJournal(filter?: TransactionFilter): TransactionJournalEntry[];
  /** Everything a restart needs (the state file's content). */
  snapshot(): Promise<EmulatorSnapshot>;
  /** Resets, then loads a snapshot; transactions that were still queued are queued again. */
  restore(snapshot: EmulatorSnapshot): Promise<void>;
  /** The app's programs (loaded at start or deployed since) and the account dumps loaded at start. */
  programs(): { programs: ProgramInfo[]; accounts: { address: string; file: string }[] };
  /**
   * Deploys `elf` at `programId`, or replaces the program there; the next call runs the new code.
   * A RelayError PROGRAM_REFUSED for a builtin, a program the runtime ships, an address that holds
   * another account, what is not a Solana ELF, and the bankrun engine (programs at start only).
   */
  deployProgram(programId: string | PublicKey, elf: Uint8Array, options?: DeployOptions): Promise<ProgramInfo>;
  /**
   * Every account of the ledger but the runtime's own, as the Solana CLI dumps it (`solana account
   * --output json`): what `--account-dir` loads back, here or into a validator.
   */
  accountDumps(): Promise<SolanaAccountDump[]>;
}
