import { PublicKey } from '@solana/web3.js';
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
import type { EngineExecution, EngineFactory, EngineTransaction, InnerInstructions, LedgerAccount, LedgerEngine } from './engine.ts';
import type { TransactionErrorJson } from './transaction-error.ts';
import { encodeBase58, keyBytesOf } from '../crypto/base58.ts';

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
 * Every new slot gets a new blockhash (LiteSVM derives each from the one before), so blockhashes
 * are the same from run to run and move only with slots, never with wall time.
 */
export const createLiteSvmEngine: EngineFactory = async (genesis) => {
  const svm = new LiteSvm();
  svm.setSigverify(false);
  svm.setBlockhashCheck(false);
  svm.setTransactionHistory(0n);
  for (const { address, account } of genesis) svm.setAccount(address.toBytes(), toNative(account));
  return new LiteSvmEngine(svm);
};

const FEE_RULES: FeeRules = { lamportsPerSignature: 5000n, builtinInstructionUnits: 3000 };

class LiteSvmEngine implements LedgerEngine {
  readonly name = 'litesvm';
  #svm: LiteSvm | null;
  readonly #rentCache = new Map<number, bigint>();
  readonly #owners = new Map<string, PublicKey>();
  #slot = 0n;

  constructor(svm: LiteSvm) {
    this.#svm = svm;
  }

  async currentBlockhash(): Promise<string> {
    return this.#open().latestBlockhash();
  }

  async getAccount(address: PublicKey): Promise<LedgerAccount | null> {
    const account = this.#open().getAccount(keyBytesOf(address));
    if (!account) return null;
    const lamports = account.lamports();
    if (lamports === 0n) return null;
    return { lamports, owner: this.#ownerOf(account.owner()), data: account.data(), executable: account.executable() };
  }

  setAccount(address: PublicKey, account: LedgerAccount): void {
    this.#open().setAccount(keyBytesOf(address), toNative(account));
  }

  async execute({ tx, bytes }: EngineTransaction): Promise<EngineExecution> {
    const svm = this.#open();
    const result = tx.version === 'legacy' ? svm.sendLegacyTransaction(bytes) : svm.sendVersionedTransaction(bytes);
    return toExecution(result);
  }

  async simulate({ tx, bytes }: EngineTransaction): Promise<EngineExecution> {
    const svm = this.#open();
    const result = tx.version === 'legacy' ? svm.simulateLegacyTransaction(bytes) : svm.simulateVersionedTransaction(bytes);
    return toExecution(result);
  }

  advance(slot: bigint, unixTimestamp: bigint): void {
    const svm = this.#open();
    if (slot > this.#slot) {
      // A new slot is a new block: its blockhash replaces the last one.
      svm.expireBlockhash();
      this.#slot = slot;
    }
    // The same clock as the bankrun engine sets: epoch 0, leader-schedule epoch 1.
    svm.setClock(new Clock(slot, unixTimestamp, 0n, 1n, unixTimestamp));
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
    // Dropping the last reference frees the native bank at the next collection.
    this.#svm = null;
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

// The variant names of LiteSVM's fieldless enums, in their declared order (litesvm's internal.d.ts
// declares them as const enums, which an isolated module cannot read).
const TRANSACTION_ERRORS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee', 'InvalidAccountForFee',
  'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee', 'InvalidAccountIndex', 'SignatureFailure',
  'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance', 'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion', 'InvalidWritableAccount', 'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks',
  'AddressLookupTableNotFound', 'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData', 'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount', 'WouldExceedMaxVoteCostLimit', 'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded', 'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
];
const INSTRUCTION_ERRORS = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall', 'InsufficientFunds',
  'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized', 'UninitializedAccount', 'UnbalancedInstruction',
  'ModifiedProgramId', 'ExternalAccountLamportSpend', 'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified',
  'DuplicateAccountIndex', 'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged', 'AccountNotExecutable',
  'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync', 'InvalidError', 'ExecutableDataModified',
  'ExecutableLamportChange', 'ExecutableAccountNotRentExempt', 'UnsupportedProgramId', 'CallDepth', 'MissingAccount', 'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded', 'InvalidSeeds', 'InvalidRealloc', 'ComputationalBudgetExceeded', 'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete', 'ProgramFailedToCompile', 'Immutable', 'IncorrectAuthority',
  'AccountNotRentExempt', 'InvalidAccountOwner', 'ArithmeticOverflow', 'UnsupportedSysvar', 'IllegalOwner', 'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded', 'MaxInstructionTraceLengthExceeded', 'BuiltinProgramsMustConsumeComputeUnits', 'BorshIoError',
];

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
