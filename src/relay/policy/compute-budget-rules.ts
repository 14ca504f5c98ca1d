import type { TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../errors/relay-error.ts';
import { decodeComputeBudget } from '../../ledger/compute-budget.ts';
import { assertNoFeePayer } from './fee-payer-roles.ts';
import type { WalkState } from './walk-state.ts';

/**
 * Compute budget (rules C1–C3, F2): only SetComputeUnitLimit and SetComputeUnitPrice, each once,
 * within the caps; the fee payer pays price × limit as the priority fee.
 */
export function checkComputeBudget(state: WalkState, ix: TransactionInstruction, index: number): void {
  const { options } = state.context;
  const decoded = decodeComputeBudget(ix.data);
  if (!decoded) {
    // (rule C1)
    throw new RelayError('COMPUTE_BUDGET_INVALID', `Instruction ${index} is not a well-formed compute-budget instruction.`);
  }
  if (decoded.kind === 'RequestHeapFrame' || decoded.kind === 'SetLoadedAccountsDataSizeLimit') {
    // (rule C1)
    throw new RelayError('COMPUTE_BUDGET_INVALID', `Instruction ${index} is ${decoded.kind}, which the relay does not sponsor: token operations need neither.`);
  }
  if (state.budgetKinds.has(decoded.kind)) {
    // (rule F2)
    throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} repeats ${decoded.kind}; the network refuses a compute-budget kind set twice.`);
  }
  state.budgetKinds.add(decoded.kind);
  if (decoded.kind === 'SetComputeUnitPrice' && decoded.microLamports > options.maxComputeUnitPrice) {
    // (rule C2)
    throw new RelayError('COMPUTE_PRICE_TOO_HIGH', `The compute-unit price ${decoded.microLamports} µlamports is above the cap of ${options.maxComputeUnitPrice}.`);
  }
  if (decoded.kind === 'SetComputeUnitLimit' && decoded.units > options.maxComputeUnitLimit) {
    // (rule C3)
    throw new RelayError('COMPUTE_LIMIT_TOO_HIGH', `The compute-unit limit ${decoded.units} is above the cap of ${options.maxComputeUnitLimit}.`);
  }
  assertNoFeePayer(state, ix, index);
}
