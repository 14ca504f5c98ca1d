/**
 * Solana's `TransactionError` as JSON, in the shape the JSON-RPC reports it:
 * `"BlockhashNotFound"`, `{ "InstructionError": [0, { "Custom": 1 }] }`,
 * `{ "InsufficientFundsForRent": { "account_index": 2 } }`.
 */
export type TransactionErrorJson = string | Record<string, unknown>;

// Display text → variant name, from solana-sdk's `InstructionError` and `TransactionError`.
// Exported so the RPC can print an error back in its Display form (preflight failure messages).
export const INSTRUCTION_ERRORS: Record<string, string> = {
  'generic instruction error': 'GenericError',
  'invalid program argument': 'InvalidArgument',
  'invalid instruction data': 'InvalidInstructionData',
  'invalid account data for instruction': 'InvalidAccountData',
  'account data too small for instruction': 'AccountDataTooSmall',
  'insufficient funds for instruction': 'InsufficientFunds',
  'incorrect program id for instruction': 'IncorrectProgramId',
  'missing required signature for instruction': 'MissingRequiredSignature',
  'instruction requires an uninitialized account': 'AccountAlreadyInitialized',
  'instruction requires an initialized account': 'UninitializedAccount',
  'sum of account balances before and after instruction do not match': 'UnbalancedInstruction',
  'instruction illegally modified the program id of an account': 'ModifiedProgramId',
  'instruction spent from the balance of an account it does not own': 'ExternalAccountLamportSpend',
  'instruction modified data of an account it does not own': 'ExternalAccountDataModified',
  'instruction changed the balance of a read-only account': 'ReadonlyLamportChange',
  'instruction modified data of a read-only account': 'ReadonlyDataModified',
  'instruction contains duplicate accounts': 'DuplicateAccountIndex',
  'instruction changed executable bit of an account': 'ExecutableModified',
  'instruction modified rent epoch of an account': 'RentEpochModified',
  'insufficient account keys for instruction': 'NotEnoughAccountKeys',
  "program other than the account's owner changed the size of the account data": 'AccountDataSizeChanged',
  'instruction expected an executable account': 'AccountNotExecutable',
  'instruction tries to borrow reference for an account which is already borrowed': 'AccountBorrowFailed',
  'instruction left account with an outstanding borrowed reference': 'AccountBorrowOutstanding',
  'instruction modifications of multiply-passed account differ': 'DuplicateAccountOutOfSync',
  'program returned invalid error code': 'InvalidError',
  'instruction changed executable accounts data': 'ExecutableDataModified',
  'instruction changed the balance of an executable account': 'ExecutableLamportChange',
  'executable accounts must be rent exempt': 'ExecutableAccountNotRentExempt',
  'Unsupported program id': 'UnsupportedProgramId',
  'Cross-program invocation call depth too deep': 'CallDepth',
  'An account required by the instruction is missing': 'MissingAccount',
  'Cross-program invocation reentrancy not allowed for this instruction': 'ReentrancyNotAllowed',
  'Length of the seed is too long for address generation': 'MaxSeedLengthExceeded',
  'Provided seeds do not result in a valid address': 'InvalidSeeds',
  'Failed to reallocate account data': 'InvalidRealloc',
  'Computational budget exceeded': 'ComputationalBudgetExceeded',
  'Cross-program invocation with unauthorized signer or writable account': 'PrivilegeEscalation',
  'Failed to create program execution environment': 'ProgramEnvironmentSetupFailure',
  'Program failed to complete': 'ProgramFailedToComplete',
  'Program failed to compile': 'ProgramFailedToCompile',
  'Account is immutable': 'Immutable',
  'Incorrect authority provided': 'IncorrectAuthority',
  'An account does not have enough lamports to be rent-exempt': 'AccountNotRentExempt',
  'Invalid account owner': 'InvalidAccountOwner',
  'Program arithmetic overflowed': 'ArithmeticOverflow',
  'Unsupported sysvar': 'UnsupportedSysvar',
  'Provided owner is not allowed': 'IllegalOwner',
};

export const TRANSACTION_ERRORS: Record<string, string> = {
  'Account in use': 'AccountInUse',
  'Account loaded twice': 'AccountLoadedTwice',
  'Attempt to debit an account but found no record of a prior credit.': 'AccountNotFound',
  'Attempt to load a program that does not exist': 'ProgramAccountNotFound',
  'Insufficient funds for fee': 'InsufficientFundsForFee',
  'This account may not be used to pay transaction fees': 'InvalidAccountForFee',
  'This transaction has already been processed': 'AlreadyProcessed',
  'Blockhash not found': 'BlockhashNotFound',
  'Transaction requires a fee but has no signature present': 'MissingSignatureForFee',
  'Transaction contains an invalid account reference': 'InvalidAccountIndex',
  'Transaction did not pass signature verification': 'SignatureFailure',
  'This program may not be used for executing instructions': 'InvalidProgramForExecution',
  'Transaction failed to sanitize accounts offsets correctly': 'SanitizeFailure',
  'Transaction version is unsupported': 'UnsupportedVersion',
  'Transaction loads a writable account that cannot be written': 'InvalidWritableAccount',
  "Transaction loads an address table account that doesn't exist": 'AddressLookupTableNotFound',
  'Transaction loads an address table account with an invalid owner': 'InvalidAddressLookupTableOwner',
  'Transaction loads an address table account with invalid data': 'InvalidAddressLookupTableData',
  'Transaction address table lookup uses an invalid index': 'InvalidAddressLookupTableIndex',
  'Transaction would exceed max Block Cost Limit': 'WouldExceedMaxBlockCostLimit',
  'Transaction would exceed max account limit within the block': 'WouldExceedMaxAccountCostLimit',
  'Transaction locked too many accounts': 'TooManyAccountLocks',
};

/** Parses the runtime's error text into the RPC's JSON form. Unknown text is kept, not lost. */
export function parseTransactionError(text: string): TransactionErrorJson {
  const instruction = /^Error processing Instruction (\d+): (.*)$/s.exec(text);
  if (instruction) {
    return { InstructionError: [Number(instruction[1]), parseInstructionError(instruction[2]!)] };
  }
  const known = TRANSACTION_ERRORS[text.trim()];
  if (known) return known;
  const rent = /^Transaction results in an account \((\d+)\) with insufficient funds for rent$/.exec(text);
  if (rent) return { InsufficientFundsForRent: { account_index: Number(rent[1]) } };
  const duplicate = /^Transaction contains a duplicate instruction \((\d+)\) that is not allowed$/.exec(text);
  if (duplicate) return { DuplicateInstruction: Number(duplicate[1]) };
  return { Unknown: text };
}

function parseInstructionError(text: string): TransactionErrorJson {
  const custom = /^custom program error: 0x([0-9a-f]+)$/i.exec(text);
  if (custom) return { Custom: Number.parseInt(custom[1]!, 16) };
  const known = INSTRUCTION_ERRORS[text];
  if (known) return known;
  const borsh = /^Failed to serialize or deserialize account data: (.*)$/.exec(text);
  if (borsh) return { BorshIoError: borsh[1] };
  return { Unknown: text };
}

/** The index of the instruction that failed, when the error names one. */
export function failedInstructionIndex(err: TransactionErrorJson | null): number | null {
  if (err && typeof err === 'object' && Array.isArray(err.InstructionError)) {
    const index = err.InstructionError[0];
    return typeof index === 'number' ? index : null;
  }
  return null;
}

/**
 * The errors a transaction meets before it is executed or charged (Agave's transaction processing
 * errors, as against fee-only load errors and execution errors): a simulation that ends in one
 * reports no fee, balances, loaded addresses or loaded data, as the validator's does.
 */
const BEFORE_EXECUTION = new Set([
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'AddressLookupTableNotFound',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'ClusterMaintenance',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'InvalidAccountIndex',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidAddressLookupTableOwner',
  'InvalidWritableAccount',
  'MissingSignatureForFee',
  'SanitizeFailure',
  'SignatureFailure',
  'TooManyAccountLocks',
  'UnbalancedTransaction',
  'UnsupportedVersion',
  'WouldExceedAccountDataBlockLimit',
  'WouldExceedAccountDataTotalLimit',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedMaxBlockCostLimit',
  'WouldExceedMaxVoteCostLimit',
]);

/** Whether `err` stopped the transaction before it was executed or charged ({@link BEFORE_EXECUTION}). */
export function failedBeforeExecution(err: TransactionErrorJson | null): boolean {
  return typeof err === 'string' && BEFORE_EXECUTION.has(err);
}

/**
 * Whether an executed transaction landed in a block: it succeeded, or it failed and still paid its
 * fee (an instruction error, insufficient funds for rent, a missing program). One that failed
 * before its fee was taken (its fee payer missing or too poor, its blockhash unknown, a signature
 * already processed) never reaches a block, so Solana's history (`getSignaturesForAddress`) never
 * lists it. Told by the fee payer's balance: a landed failure leaves only the fee taken from it.
 * With no fee to tell by (a fee of 0), an error with a variant body (`InstructionError`, …) landed.
 * Records say it themselves (`landed`); those of earlier versions are judged by these rules.
 */
export function landedInBlock(result: {
  landed?: boolean;
  err: TransactionErrorJson | null;
  fee: bigint;
  preBalances: readonly bigint[];
  postBalances: readonly bigint[];
}): boolean {
  if (result.landed !== undefined) return result.landed;
  if (result.err === null) return true;
  if (result.fee > 0n) return (result.postBalances[0] ?? 0n) < (result.preBalances[0] ?? 0n);
  return typeof result.err === 'object';
}
