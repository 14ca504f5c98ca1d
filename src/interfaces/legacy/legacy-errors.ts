import { failedInstructionIndex, parseTransactionError, type TransactionErrorJson } from '../../domain/ledger/transaction-error.ts';
import type { Submission } from '../../domain/store/submissions.ts';
import type { LegacyErrorType } from './legacy-records.ts';

/** An error entry of a legacy record, before it gets its id. */
export interface LegacyErrorEntry {
  type: LegacyErrorType;
  message: string;
  logs: string[];
  instruction: number | null;
}

/** SPL Token's custom error codes, for readable messages. */
const TOKEN_ERRORS = [
  'Lamport balance below rent-exempt threshold.',
  'Insufficient funds.',
  'Invalid Mint.',
  'Account not associated with this Mint.',
  'Owner does not match.',
  'Fixed supply.',
  'Already in use.',
  'Invalid number of provided signers.',
  'Invalid number of required signers.',
  'State is unititialized.',
  'Instruction does not support native tokens.',
  'Non-native account can only be closed if its balance is zero.',
  'Invalid instruction.',
  'State is invalid for requested operation.',
  'Operation overflowed.',
  'Account does not support specified authority type.',
  'This token mint cannot freeze accounts.',
  'Account is frozen.',
  'The provided decimals value different from the Mint decimals.',
  'Instruction does not support non-native tokens.',
];

/**
 * The legacy error type of a ledger error, as the legacy service classified them:
 * `BadNonce` for an unknown or expired blockhash, `InvalidAccount` for invalid account data,
 * `Unknown` for anything else.
 */
export function legacyErrorType(err: TransactionErrorJson): LegacyErrorType {
  if (err === 'BlockhashNotFound') return 'BadNonce';
  if (typeof err === 'object' && Array.isArray(err.InstructionError) && err.InstructionError[1] === 'InvalidAccountData') return 'InvalidAccount';
  return 'Unknown';
}

/** A readable message for a ledger error: the failing instruction and what went wrong. */
export function legacyErrorMessage(err: TransactionErrorJson): string {
  if (err === 'BlockhashNotFound') return 'Blockhash not found.';
  if (typeof err === 'object' && Array.isArray(err.InstructionError)) {
    const [index, detail] = err.InstructionError as [number, TransactionErrorJson];
    let what: string;
    if (detail === 'InvalidAccountData') what = 'invalid account data for instruction.';
    else if (typeof detail === 'object' && typeof detail.Custom === 'number')
      what = TOKEN_ERRORS[detail.Custom] ?? `custom program error: 0x${detail.Custom.toString(16)}`;
    else what = typeof detail === 'string' ? detail : JSON.stringify(detail);
    return `Error processing Instruction ${index}: ${what}`;
  }
  return `Transaction failed: ${typeof err === 'string' ? err : JSON.stringify(err)}`;
}

/** The error entry of a relayed transaction that failed: on the ledger, or by an injected fault. */
export function ledgerFailure(submission: Submission): LegacyErrorEntry {
  if (submission.ledger && submission.ledger.err !== null) {
    const err = submission.ledger.err;
    return { type: legacyErrorType(err), message: legacyErrorMessage(err), logs: submission.ledger.logs, instruction: failedInstructionIndex(err) };
  }
  // An injected fault carries the runtime's error text (or a note of our own): classify it the same way.
  const text = submission.injectedError ?? 'The transaction failed.';
  const err = parseTransactionError(text);
  const unknown = typeof err === 'object' && 'Unknown' in err;
  return {
    type: legacyErrorType(err),
    message: unknown ? text : legacyErrorMessage(err),
    logs: submission.ledger?.logs ?? [],
    instruction: failedInstructionIndex(err),
  };
}

/** A blockhash problem found before submission: nothing is submitted. */
export function badNonce(message: string): LegacyErrorEntry {
  return { type: 'BadNonce', message, logs: [], instruction: null };
}

/**
 * What Kinetic recorded when the RPC refused a transaction whose blockhash it did not know, never
 * seen and expired alike: web3.js's SendTransactionError as text. (Kinetic typed it Unknown; the
 * spec shows BadNonce, which names the cause.)
 */
export const BLOCKHASH_NOT_FOUND_MESSAGE = 'Error: failed to send transaction: Transaction simulation failed: Blockhash not found';

export function blockhashNotFound(): LegacyErrorEntry {
  return badNonce(BLOCKHASH_NOT_FOUND_MESSAGE);
}

export function timedOut(commitment: string, timeoutMs: number): LegacyErrorEntry {
  return { type: 'Timeout', message: `Transaction timed out: ${commitment} not reached within ${timeoutMs} ms.`, logs: [], instruction: null };
}

export function webhookFailed(message: string, logs: string[]): LegacyErrorEntry {
  return { type: 'WebhookFailed', message, logs, instruction: null };
}
