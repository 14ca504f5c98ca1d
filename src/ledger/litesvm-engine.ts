import { createHash } from 'node:crypto';
import { PublicKey, SystemProgram } from '@solana/web3.js';
// LiteSVM's native binding, not its kit wrapper: the binding takes and gives wire bytes and raw keys,
// which the emulator already holds, so nothing is converted to @solana/kit types and back. The
// package's own kit (8.x) stays nested under it, unloaded; the project's @solana/kit is unaffected.
import {
  Account,
  Clock,
  FailedTransactionMetadata,
  InstructionErrorCustom,
  LiteSvm,
  SimulatedTransactionInfo,
  TransactionErrorDuplicateInstruction,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
  type InnerInstruction as LiteInnerInstruction,
  type TransactionMetadata,
} from 'litesvm/dist/internal.js';
import type { FeeRules } from './compute-budget.ts';
import type { EngineClock, EngineExecution, EngineFactory, EngineTransaction, InnerInstructions, LedgerAccount, LedgerEngine } from './engine.ts';
import { INSTRUCTION_ERRORS, TRANSACTION_ERRORS } from './runtime-error-names.ts';
import type { TransactionErrorJson } from './transaction-error.ts';
import { addressOf, encodeBase58, keyBytesOf } from '../crypto/base58.ts';

/**
 * LiteSVM behind the {@link LedgerEngine} seam: the same SPL Token, Token-2022, Associated Token,
 * Memo (v1 and v3) and ComputeBudget programs, loaded from the binaries the litesvm package ships
 * (`new LiteSvm()` adds them with the sysvars, builtins and precompiles).
 *
 * Its own checks that the emulator already made are off:
 * - signatures: the relay verified the client's and made the fee payer's; RPC sendTransaction
 *   verifies before it queues, and simulateTransaction verifies only when asked (`sigVerify`), as
 *   the validator does. Verifying again would cost two ed25519 checks per transfer for nothing.
 * - the blockhash: {@link Ledger} owns validity (150 blocks from hand-out, or until expired);
 *   LiteSVM would accept only its latest blockhash.
 * - transaction history: the emulator's records refuse replays; LiteSVM's would keep every
 *   transaction's metadata for the life of the emulator.
 *
 * Blockhashes are the engine's own chain (each the SHA-256 of the one before, from a fixed seed):
 * a new one with every slot and after every executed transaction, the same from run to run, never
 * tied to wall time.
 *
 * A bank holds ~7.5 MB of loaded programs, and memory the allocator got back stays in the
 * process, so closed engines' banks are reset and reused (at most {@link MAX_IDLE_BANKS} kept):
 * every account an engine wrote is put back as the bank had it, so that a reused bank behaves as a
 * new one. An engine that ran something the reset cannot see through (a transaction with address
 * lookup tables, a write to an executable or loader-owned account) leaves its bank to the garbage
 * collector instead.
 */
export const createLiteSvmEngine: EngineFactory = async (genesis) => {
  const engine = new LiteSvmEngine(idleBanks.pop() ?? newBank());
  for (const { address, account } of genesis) engine.setAccount(address, account);
  return engine;
};

const FEE_RULES: FeeRules = { lamportsPerSignature: 5000n, builtinInstructionUnits: 3000 };
const MAX_IDLE_BANKS = 4;
const SYSTEM_PROGRAM = SystemProgram.programId.toBytes();
const NATIVE_MINT = new PublicKey('So11111111111111111111111111111111111111112').toBytes();
const idleBanks: LiteSvm[] = [];
const BLOCKHASH_SEED = createHash('sha256').update('relay-emulator litesvm blockhash').digest();
const LOADERS = new Set(['BPFLoader1111111111111111111111111111111111', 'BPFLoader2111111111111111111111111111111111', 'BPFLoaderUpgradeab1e11111111111111111111111', 'LoaderV411111111111111111111111111111111111', 'NativeLoader1111111111111111111111111111111']);

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

class LiteSvmEngine implements LedgerEngine {
  readonly name = 'litesvm';
  #svm: LiteSvm | null;
  readonly #rentCache = new Map<number, bigint>();
  readonly #owners = new Map<string, PublicKey>();
  /** What the bank held at each address before this engine first wrote it (null: nothing). */
  readonly #original = new Map<string, { bytes: Uint8Array; account: Account | null }>();
  #reusable = true;
  /** Executable accounts the bank could not load as programs, kept as plain data: reported executable as written. */
  readonly #unloadable = new Set<string>();
  #slot = 0n;
  #blockhash = BLOCKHASH_SEED;
  #blockhashText = encodeBase58(BLOCKHASH_SEED);

  constructor(svm: LiteSvm) {
    this.#svm = svm;
  }

  async currentBlockhash(): Promise<string> {
    return this.#blockhashText;
  }

  async getAccount(address: PublicKey): Promise<LedgerAccount | null> {
    const account = this.#open().getAccount(keyBytesOf(address));
    if (!account) return null;
    const lamports = account.lamports();
    if (lamports === 0n) return null;
    return { lamports, owner: this.#ownerOf(account.owner()), data: account.data(), executable: account.executable() || (this.#unloadable.size > 0 && this.#unloadable.has(addressOf(address))) };
  }

  setAccount(address: PublicKey, account: LedgerAccount): void {
    const svm = this.#open();
    const bytes = keyBytesOf(address);
    this.#remember(svm, addressOf(address), bytes);
    if (account.executable || LOADERS.has(addressOf(account.owner))) this.#reusable = false;
    const address_ = addressOf(address);
    this.#unloadable.delete(address_);
    try {
      svm.setAccount(bytes, toNative(account));
    } catch (error) {
      // LiteSVM loads an executable account as a program and refuses one it cannot load; bankrun
      // stores it as given. Store it as data, report it as written: invoking it fails either way.
      if (!account.executable) throw error;
      svm.setAccount(bytes, toNative({ ...account, executable: false }));
      this.#unloadable.add(address_);
    }
  }

  async execute({ tx, bytes }: EngineTransaction): Promise<EngineExecution> {
    const svm = this.#open();
    const { message } = tx;
    if (message.version !== 'legacy' && message.addressTableLookups.length > 0) this.#reusable = false;
    // Only writable accounts can change (programs and other read-only keys cannot).
    message.staticAccountKeys.forEach((key, index) => {
      if (message.isAccountWritable(index)) this.#remember(svm, addressOf(key), keyBytesOf(key));
    });
    const result = tx.version === 'legacy' ? svm.sendLegacyTransaction(bytes) : svm.sendVersionedTransaction(bytes);
    // The next blockhash handed out is a new one, as bankrun's (which moves with wall time) and a
    // cluster's (which moves every 400 ms) would be by then: two equal transactions built one after
    // the other differ by their blockhash, instead of being one transaction (a slot holds many).
    this.#nextBlockhash();
    return toExecution(result);
  }

  async simulate({ tx, bytes }: EngineTransaction): Promise<EngineExecution> {
    const svm = this.#open();
    const result = tx.version === 'legacy' ? svm.simulateLegacyTransaction(bytes) : svm.simulateVersionedTransaction(bytes);
    return toExecution(result);
  }

  advance(clock: EngineClock): void {
    const svm = this.#open();
    if (clock.slot > this.#slot) {
      // A new slot is a new block with a new blockhash. The bank's own blockhash moves too: durable
      // nonces store it, and a nonce advances once per blockhash.
      this.#nextBlockhash();
      svm.expireBlockhash();
      this.#slot = clock.slot;
    }
    svm.setClock(new Clock(clock.slot, clock.epochStartTimestamp, clock.epoch, clock.leaderScheduleEpoch, clock.unixTimestamp));
  }

  feeRules(): FeeRules {
    return FEE_RULES;
  }

  async minimumBalanceForRentExemption(dataLength: number): Promise<bigint> {
    let lamports = this.#rentCache.get(dataLength);
    if (lamports === undefined) {
      lamports = this.#open().minimumBalanceForRentExemption(BigInt(dataLength));
      this.#rentCache.set(dataLength, lamports);
    }
    return lamports;
  }

  async close(): Promise<void> {
    const svm = this.#svm;
    if (!svm) return;
    this.#svm = null;
    if (!this.#reusable || idleBanks.length >= MAX_IDLE_BANKS) return;
    // Put back every account this engine wrote; an account that was not there gets 0 lamports and
    // no data, which the runtime and getAccount treat as absent.
    for (const { bytes, account } of this.#original.values()) svm.setAccount(bytes, account ?? new Account(0n, new Uint8Array(), SYSTEM_PROGRAM, false, 0n));
    idleBanks.push(svm);
  }

  #nextBlockhash(): void {
    this.#blockhash = createHash('sha256').update(this.#blockhash).digest();
    this.#blockhashText = encodeBase58(this.#blockhash);
  }

  #remember(svm: LiteSvm, address: string, bytes: Uint8Array): void {
    if (this.#original.has(address)) return;
    this.#original.set(address, { bytes, account: svm.getAccount(bytes) });
  }

  #open(): LiteSvm {
    if (!this.#svm) throw new Error('the LiteSVM engine is closed');
    return this.#svm;
  }

  /** Owners are few (System, the token programs, loaders): one PublicKey each, not one per read. */
  #ownerOf(bytes: Uint8Array): PublicKey {
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    let owner = this.#owners.get(key);
    if (!owner) {
      owner = new PublicKey(bytes);
      this.#owners.set(key, owner);
    }
    return owner;
  }
}

function toNative(account: LedgerAccount): Account {
  return new Account(account.lamports, account.data, keyBytesOf(account.owner), account.executable, 0n);
}

function toExecution(result: TransactionMetadata | FailedTransactionMetadata | SimulatedTransactionInfo): EngineExecution {
  const failed = result instanceof FailedTransactionMetadata;
  const meta: TransactionMetadata = failed || result instanceof SimulatedTransactionInfo ? result.meta() : result;
  const returnData = meta.returnData();
  const data = returnData.data();
  return {
    error: failed ? errorJson(result.err()) : null,
    logs: meta.logs(),
    computeUnitsConsumed: meta.computeUnitsConsumed(),
    // As the validator reports it: no return data when the last value set was empty.
    returnData: data.length > 0 ? { programId: encodeBase58(returnData.programId()), data } : null,
    innerInstructions: innerInstructionsOf(meta.innerInstructions()),
  };
}

/** LiteSVM lists every top-level instruction; the RPC lists those that invoked something. */
function innerInstructionsOf(groups: LiteInnerInstruction[][]): InnerInstructions[] {
  const result: InnerInstructions[] = [];
  for (const [index, group] of groups.entries()) {
    if (group.length === 0) continue;
    result.push({
      index,
      instructions: group.map((inner) => {
        const instruction = inner.instruction();
        return { programIdIndex: instruction.programIdIndex(), accounts: [...instruction.accounts()], data: instruction.data(), stackHeight: inner.stackHeight() };
      }),
    });
  }
  return result;
}

type NativeError = ReturnType<FailedTransactionMetadata['err']>;

/** LiteSVM's TransactionError in the RPC's JSON form (the same form the bankrun engine's text parses to). */
export function errorJson(error: NativeError): TransactionErrorJson {
  if (typeof error === 'number') return TRANSACTION_ERRORS[error] ?? { Unknown: `TransactionError ${error}` };
  if (error instanceof TransactionErrorInstructionError) {
    const inner = error.err();
    let json: TransactionErrorJson;
    if (typeof inner === 'number') json = INSTRUCTION_ERRORS[inner] ?? { Unknown: `InstructionError ${inner}` };
    else if (inner instanceof InstructionErrorCustom) json = { Custom: inner.code };
    else json = { BorshIoError: inner.msg };
    return { InstructionError: [error.index, json] };
  }
  if (error instanceof TransactionErrorDuplicateInstruction) return { DuplicateInstruction: error.index };
  if (error instanceof TransactionErrorInsufficientFundsForRent) return { InsufficientFundsForRent: { account_index: error.accountIndex } };
  return { ProgramExecutionTemporarilyRestricted: { account_index: error.accountIndex } };
}
