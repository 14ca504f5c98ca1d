import { INSTRUCTION_ERRORS, TRANSACTION_ERRORS, type TransactionErrorJson } from '../../domain/ledger/transaction-error.ts';

const invert = (table: Record<string, string>) => new Map(Object.entries(table).map(([text, variant]) => [variant, text]));
const TRANSACTION_TEXT = invert(TRANSACTION_ERRORS);
const INSTRUCTION_TEXT = invert(INSTRUCTION_ERRORS);

/**
 * A `TransactionError` (RPC JSON form) in its Display form, as the validator prints it in
 * "Transaction simulation failed: …": the inverse of parseTransactionError.
 */
export function transactionErrorText(err: TransactionErrorJson): string {
  if (typeof err === 'string') return TRANSACTION_TEXT.get(err) ?? err;
  if (Array.isArray(err.InstructionError)) {
    const [index, inner] = err.InstructionError as [number, TransactionErrorJson];
    return `Error processing Instruction ${index}: ${instructionErrorText(inner)}`;
  }
  const rent = err.InsufficientFundsForRent as { account_index?: number } | undefined;
  if (rent) return `Transaction results in an account (${rent.account_index}) with insufficient funds for rent`;
  if (typeof err.DuplicateInstruction === 'number') return `Transaction contains a duplicate instruction (${err.DuplicateInstruction}) that is not allowed`;
  if (typeof err.Unknown === 'string') return err.Unknown;
  return JSON.stringify(err);
}

function instructionErrorText(err: TransactionErrorJson): string {
  if (typeof err === 'string') return INSTRUCTION_TEXT.get(err) ?? err;
  if (typeof err.Custom === 'number') return `custom program error: 0x${err.Custom.toString(16)}`;
  if (typeof err.BorshIoError === 'string') return `Failed to serialize or deserialize account data: ${err.BorshIoError}`;
  if (typeof err.Unknown === 'string') return err.Unknown;
  return JSON.stringify(err);
}
