import {
  FailedTransactionMetadata,
  InstructionErrorCustom,
  SimulatedTransactionInfo,
  TransactionErrorDuplicateInstruction,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
  type InnerInstruction as LiteInnerInstruction,
  type TransactionMetadata,
} from 'litesvm/dist/internal.js';
import type { EngineExecution, InnerInstructions } from './engine.ts';
import { INSTRUCTION_ERRORS, TRANSACTION_ERRORS } from './runtime-error-names.ts';
import type { TransactionErrorJson } from './transaction-error.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';

/** What LiteSVM reports of a transaction (executed, failed or simulated), as the {@link EngineExecution} the seam speaks. */
export function toExecution(result: TransactionMetadata | FailedTransactionMetadata | SimulatedTransactionInfo): EngineExecution {
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
        return {
          programIdIndex: instruction.programIdIndex(),
          accounts: [...instruction.accounts()],
          data: instruction.data(),
          stackHeight: inner.stackHeight(),
        };
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
