import type { TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
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
    throw new RelayError('COMPUTE_BUDGET_INVALID', `Instruction ${index} is not a well-formed compute-budget instruction.`, { rule: 'C1' });
  }
  if (decoded.kind === 'RequestHeapFrame' || decoded.kind === 'SetLoadedAccountsDataSizeLimit') {
    throw new RelayError(
      'COMPUTE_BUDGET_INVALID',
      `Instruction ${index} is ${decoded.kind}, which the relay does not sponsor: token operations need neither.`,
      { rule: 'C1' },
    );
  }
  if (state.budgetKinds.has(decoded.kind)) {
    throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} repeats ${decoded.kind}; the network refuses a compute-budget kind set twice.`, {
      rule: 'F2',
    });
  }
  state.budgetKinds.add(decoded.kind);
  if (decoded.kind === 'SetComputeUnitPrice' && decoded.microLamports > options.maxComputeUnitPrice) {
    throw new RelayError(
      'COMPUTE_PRICE_TOO_HIGH',
      `The compute-unit price ${decoded.microLamports} µlamports is above the cap of ${options.maxComputeUnitPrice}.`,
      { rule: 'C2' },
    );
  }
  if (decoded.kind === 'SetComputeUnitLimit' && decoded.units > options.maxComputeUnitLimit) {
    throw new RelayError('COMPUTE_LIMIT_TOO_HIGH', `The compute-unit limit ${decoded.units} is above the cap of ${options.maxComputeUnitLimit}.`, {
      rule: 'C3',
    });
  }
  assertNoFeePayer(state, ix, index);
}
