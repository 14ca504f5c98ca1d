import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { createHash } from 'node:crypto';
import { RelayError } from '../errors/relay-error.ts';
import { keypairOf } from '../fixtures/load-fixtures.ts';
import { decodeMint, decodeTokenAccount } from '../ledger/token-accounts.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { QueueOptions, QueueState } from '../relay/relay-queue.ts';
import type { EmulatorServices } from '../services.ts';
import { parseAddress, toAccountState, toLedgerAccount, type AccountState } from './account-state.ts';
import { runControlTransaction } from './control-transactions.ts';
import type { Fault, FaultBook, FaultRecord } from './faults.ts';
import type { RequestFilter, RequestJournal, RequestRecord } from './request-journal.ts';
import { transactionJournal, type TransactionFilter, type TransactionJournalEntry } from './transaction-journal.ts';

/** Lamports the faucet gives when asked for nothing in particular: 1 SOL. */
export const DEFAULT_FAUCET_LAMPORTS = 1_000_000_000n;

export interface FaucetRequest {
  address: string | PublicKey;
  /** Lamports to add. Default 1 SOL when no mint is given, else none. */
  lamports?: bigint | number;
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

/** A state snapshot: every registered part's data, as the state file stores it (see state-codec). */
export interface EmulatorSnapshot {
  format: 'relay-emulator-state';
  version: 1;
  savedAt: string;
  /** The fee payer of the fixtures it was taken with. */
  feePayer: string;
  /** Whether the relay queue was paused. */
  queuePaused: boolean;
  parts: Record<string, unknown>;
}

/** The test controls, as methods of the emulator; every one is also a route under /__emulator. */
export interface TestControlMethods {
  /** Back to the fixtures: accounts, records, history, queue, faults, journals and every registered part. */
  reset(): Promise<void>;
  /** SOL (credited directly) and/or tokens of a known mint (minted by a real MintTo into the owner's associated token account). */
  faucet(request: FaucetRequest): Promise<FaucetResult>;
  /** A new SPL Token mint whose mint authority is the fixture mint authority. */
  createMint(request: { decimals: number; symbol?: string }): Promise<CreatedMint>;
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
}

export interface TestControlsOptions {
  services: EmulatorServices;
  faults: FaultBook;
  journal: RequestJournal;
  /** The queue's start-up settings, restored on reset. */
  queue: Pick<QueueOptions, 'mode' | 'latencyMs'>;
}

interface MintsSnapshot {
  next: number;
  mints: CreatedMint[];
}

export class TestControls implements TestControlMethods {
  readonly #services: EmulatorServices;
  readonly #faults: FaultBook;
  readonly #journal: RequestJournal;
  readonly #queue: TestControlsOptions['queue'];
  readonly #faucetKey: Keypair;
  readonly #mintAuthority: Keypair;
  /** Mints made by createMint, and the seed counter of the next one. */
  readonly #mints = new Map<string, CreatedMint>();
  #nextMint = 1;

  constructor(options: TestControlsOptions) {
    this.#services = options.services;
    this.#faults = options.faults;
    this.#journal = options.journal;
    this.#queue = options.queue;
    this.#faucetKey = keypairOf(options.services.fixtures.relay.faucet);
    this.#mintAuthority = keypairOf(options.services.fixtures.relay.mintAuthority);
    const { state } = options.services;
    state.register({
      name: 'mints',
      snapshot: (): MintsSnapshot => ({ next: this.#nextMint, mints: [...this.#mints.values()] }),
      restore: (data) => {
        const snapshot = data as MintsSnapshot;
        this.#nextMint = snapshot.next;
        for (const mint of snapshot.mints) this.#mints.set(mint.mint, mint);
      },
      reset: () => {
        this.#mints.clear();
        this.#nextMint = 1;
      },
    });
    // Faults and the request journal are test-time only: reset clears them; the state file skips them.
    state.register({ name: 'faults', snapshot: () => undefined, restore: () => undefined, reset: () => this.#faults.clear() });
    state.register({ name: 'requestJournal', snapshot: () => undefined, restore: () => undefined, reset: () => this.#journal.clear() });
  }

  async reset(): Promise<void> {
    const { queue, relay, state } = this.#services;
    await this.#quiesce();
    queue.clear();
    await relay.settleFinalizations();
    for (const part of state.parts()) await part.reset();
    queue.setLatency(this.#queue.latencyMs);
    if (this.#queue.mode === 'auto') queue.resume();
  }

  async faucet(request: FaucetRequest): Promise<FaucetResult> {
    const { ledger, tokenAccounts } = this.#services;
    const address = parseAddress(request.address);
    const mint = request.mint === undefined ? null : parseAddress(request.mint, 'mint');
    const lamports = toBigInt(request.lamports ?? (mint === null ? DEFAULT_FAUCET_LAMPORTS : 0n), 'lamports');
    const amount = toBigInt(request.amount ?? 0n, 'amount');
    if (mint === null && request.amount !== undefined) throw new RelayError('VALIDATION_FAILED', 'amount needs a mint.', { errors: [{ path: 'mint', message: 'is required with amount' }] });

    let tokenAccount: string | null = null;
    let tokenAmount: bigint | null = null;
    if (mint !== null) {
      const mintAccount = await ledger.getAccount(mint);
      const state = decodeMint(mintAccount);
      if (!mintAccount || !state) throw new RelayError('MINT_NOT_FOUND', `${mint.toBase58()} is not a mint on the ledger.`);
      if (state.mintAuthority !== this.#mintAuthority.publicKey.toBase58()) {
        throw new RelayError('MINT_NOT_FOUND', `The emulator cannot mint ${mint.toBase58()}: its mint authority is ${state.mintAuthority ?? 'none'}, not the fixture mint authority.`);
      }
      const programId = mintAccount.owner;
      const ata = getAssociatedTokenAddressSync(mint, address, true, programId);
      const instructions = [createAssociatedTokenAccountIdempotentInstruction(this.#faucetKey.publicKey, ata, address, mint, programId)];
      if (amount > 0n) instructions.push(createMintToInstruction(mint, ata, this.#mintAuthority.publicKey, amount, [], programId));
      await runControlTransaction(ledger, { payer: this.#faucetKey, signers: [this.#mintAuthority], instructions, purpose: 'faucet' });
      tokenAccounts.add(address.toBase58(), ata.toBase58());
      tokenAccount = ata.toBase58();
      tokenAmount = decodeTokenAccount(await ledger.getAccount(ata))?.amount ?? 0n;
    }

    // SOL is credited directly from the faucet key's balance: no transaction, no fee, nothing in history.
    if (lamports > 0n) {
      await writeAccounts(ledger, [
        { address, account: (current) => (current ? { ...current, lamports: current.lamports + lamports } : { lamports, owner: SystemProgram.programId, data: new Uint8Array(), executable: false }) },
      ]);
    }
    return { address: address.toBase58(), lamports: (await ledger.getAccount(address))?.lamports ?? 0n, tokenAccount, tokenAmount };
  }

  async createMint(request: { decimals: number; symbol?: string }): Promise<CreatedMint> {
    const { ledger } = this.#services;
    if (!Number.isInteger(request.decimals) || request.decimals < 0 || request.decimals > 18) {
      throw new RelayError('VALIDATION_FAILED', 'decimals must be an integer from 0 to 18.', { errors: [{ path: 'decimals', message: 'must be an integer from 0 to 18' }] });
    }
    // Mint addresses come from a counter, so a test that starts from reset() gets the same mints every run.
    let mint: Keypair;
    do mint = mintKeypair(this.#nextMint++);
    while ((await ledger.getAccount(mint.publicKey)) !== null);
    await runControlTransaction(ledger, {
      payer: this.#faucetKey,
      signers: [mint],
      purpose: 'mint creation',
      instructions: [
        SystemProgram.createAccount({
          fromPubkey: this.#faucetKey.publicKey,
          newAccountPubkey: mint.publicKey,
          lamports: Number(await ledger.minimumBalanceForRentExemption(MINT_SIZE)),
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeMint2Instruction(mint.publicKey, request.decimals, this.#mintAuthority.publicKey, null),
      ],
    });
    const created: CreatedMint = { mint: mint.publicKey.toBase58(), decimals: request.decimals, symbol: request.symbol ?? null };
    this.#mints.set(created.mint, created);
    return { ...created };
  }

  async getAccount(address: string | PublicKey): Promise<AccountState | null> {
    const account = await this.#services.ledger.getAccount(parseAddress(address));
    return account ? toAccountState(account) : null;
  }

  async setAccount(address: string | PublicKey, account: AccountState): Promise<AccountState | null> {
    const key = parseAddress(address);
    if (account.lamports < 0n) throw new RelayError('VALIDATION_FAILED', 'lamports must not be negative.');
    await writeAccounts(this.#services.ledger, [{ address: key, account: toLedgerAccount(account) }]);
    const token = decodeTokenAccount(toLedgerAccount(account));
    if (token && account.lamports > 0n) this.#services.tokenAccounts.add(token.owner, key.toBase58());
    return this.getAccount(key);
  }

  clock(): ClockState {
    const clock = this.#services.ledger.clock();
    return { slot: Number(clock.slot), blockHeight: Number(clock.blockHeight), unixTimestamp: Number(clock.unixTimestamp) };
  }

  async warp(request: WarpRequest): Promise<ClockState> {
    const { ledger } = this.#services;
    if (request.slots !== undefined && request.slot !== undefined) throw new RelayError('VALIDATION_FAILED', 'Give slots (or warpSlots) or slot, not both.');
    for (const [name, value] of Object.entries({ slots: request.slots, slot: request.slot, unixTimestamp: request.unixTimestamp })) {
      if (value !== undefined && !Number.isSafeInteger(value)) throw new RelayError('VALIDATION_FAILED', `${name} must be an integer.`);
    }
    if ((request.slots ?? 0) < 0) throw new RelayError('VALIDATION_FAILED', 'slots must not be negative: the ledger only moves forward.');
    if (request.slot !== undefined && BigInt(request.slot) < ledger.clock().slot) {
      throw new RelayError('VALIDATION_FAILED', `The ledger is at slot ${ledger.clock().slot}; it cannot go back to slot ${request.slot}.`);
    }
    await ledger.warp({
      ...(request.slots === undefined ? {} : { slots: request.slots }),
      ...(request.slot === undefined ? {} : { slot: BigInt(request.slot) }),
      ...(request.unixTimestamp === undefined ? {} : { unixTimestamp: BigInt(request.unixTimestamp) }),
    });
    return this.clock();
  }

  async expireBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: number }> {
    const { blockhash, lastValidBlockHeight } = await this.#services.ledger.expireBlockhashes();
    return { blockhash, lastValidBlockHeight: Number(lastValidBlockHeight) };
  }

  queueState(): QueueState {
    return this.#services.queue.state();
  }

  pauseQueue(): QueueState {
    this.#services.queue.pause();
    return this.queueState();
  }

  resumeQueue(): QueueState {
    this.#services.queue.resume();
    return this.queueState();
  }

  stepQueue(): Promise<string[]> {
    return this.#services.queue.step();
  }

  async flushQueue(): Promise<QueueState> {
    await this.#services.queue.flush();
    return this.queueState();
  }

  setQueueLatency(latencyMs: number): QueueState {
    if (!Number.isSafeInteger(latencyMs) || latencyMs < 0) throw new RelayError('VALIDATION_FAILED', 'latencyMs must be a non-negative integer.');
    this.#services.queue.setLatency(latencyMs);
    return this.queueState();
  }

  injectFault(fault: Fault): FaultRecord {
    return this.#faults.arm(fault);
  }

  faults(): FaultRecord[] {
    return this.#faults.list();
  }

  clearFaults(): void {
    this.#faults.clear();
  }

  requestJournal(filter: RequestFilter = {}): RequestRecord[] {
    return this.#journal.list(filter);
  }

  transactionJournal(filter: TransactionFilter = {}): TransactionJournalEntry[] {
    return transactionJournal(this.#services.records, filter);
  }

  async snapshot(): Promise<EmulatorSnapshot> {
    const { queue, state, fixtures } = this.#services;
    const queuePaused = queue.state().paused;
    await this.#quiesce();
    try {
      const parts: Record<string, unknown> = {};
      for (const part of state.parts()) {
        const data = await part.snapshot();
        if (data !== undefined) parts[part.name] = data;
      }
      return { format: 'relay-emulator-state', version: 1, savedAt: new Date().toISOString(), feePayer: fixtures.relay.feePayer.publicKey, queuePaused, parts };
    } finally {
      if (!queuePaused) queue.resume();
    }
  }

  async restore(snapshot: EmulatorSnapshot): Promise<void> {
    if (snapshot.format !== 'relay-emulator-state' || snapshot.version !== 1) {
      throw new RelayError('VALIDATION_FAILED', `Not a relay-emulator state snapshot of version 1 (format ${String(snapshot.format)}, version ${String(snapshot.version)}).`);
    }
    const { queue, state } = this.#services;
    await this.reset();
    queue.pause();
    for (const part of state.parts()) {
      if (part.name in snapshot.parts) await part.restore(snapshot.parts[part.name]);
    }
    if (!snapshot.queuePaused) queue.resume();
  }

  /** Pauses the queue and waits for the transaction being submitted, if any, to be recorded. */
  async #quiesce(): Promise<void> {
    const { queue } = this.#services;
    queue.pause();
    // settle() waits for the running job, then refuses because the queue is paused with jobs waiting.
    await queue.settle().catch(() => undefined);
  }
}

/** Ledger writes, with the reservoir's refusal (it cannot cover the lamports asked for) as a 400. */
async function writeAccounts(ledger: Ledger, writes: Parameters<Ledger['setAccounts']>[0]): Promise<void> {
  try {
    await ledger.setAccounts(writes);
  } catch (error) {
    if (error instanceof RangeError) throw new RelayError('VALIDATION_FAILED', `Cannot write the account: ${error.message}.`);
    throw error;
  }
}

function mintKeypair(index: number): Keypair {
  return Keypair.fromSeed(createHash('sha256').update(`relay-emulator:control-mint:${index}`).digest());
}

function toBigInt(value: bigint | number | string, field: string): bigint {
  let result: bigint;
  try {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error('not an integer');
    if (typeof value === 'string' && !/^[0-9]+$/.test(value)) throw new Error('not digits');
    result = BigInt(value);
  } catch {
    throw new RelayError('VALIDATION_FAILED', `${field} must be a non-negative integer.`, { errors: [{ path: field, message: 'must be a non-negative integer' }] });
  }
  if (result < 0n || result > 0xffff_ffff_ffff_ffffn) {
    throw new RelayError('VALIDATION_FAILED', `${field} must be between 0 and 2^64-1.`, { errors: [{ path: field, message: 'must fit in a u64' }] });
  }
  return result;
}

const METHOD_NAMES = [
  'reset',
  'faucet',
  'createMint',
  'getAccount',
  'setAccount',
  'clock',
  'warp',
  'expireBlockhash',
  'queueState',
  'pauseQueue',
  'resumeQueue',
  'stepQueue',
  'flushQueue',
  'setQueueLatency',
  'injectFault',
  'faults',
  'clearFaults',
  'requestJournal',
  'transactionJournal',
  'snapshot',
  'restore',
] as const satisfies readonly (keyof TestControlMethods)[];

// Fails to compile when a method of TestControlMethods is missing from METHOD_NAMES.
const everyMethodListed: Exclude<keyof TestControlMethods, (typeof METHOD_NAMES)[number]> extends never ? true : never = true;
void everyMethodListed;

/** The controls as plain bound functions, to spread onto the emulator object. */
export function bindControlMethods(controls: TestControls): TestControlMethods {
  return Object.fromEntries(METHOD_NAMES.map((name) => [name, (controls[name] as (...args: unknown[]) => unknown).bind(controls)])) as unknown as TestControlMethods;
}
