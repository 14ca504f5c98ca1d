import type { TransactionInstruction } from '@solana/web3.js';
import { assertNoFeePayer } from './fee-payer-roles.ts';
import type { WalkState } from './walk-state.ts';

/**
 * Memo and `extraPrograms` instructions (rules P1, F1): the fee payer has no role in them, so it may
 * not be among their accounts. A program can debit only accounts it owns, only the System Program
 * owns the fee payer, and it moves the fee payer's lamports only with the fee payer's signature,
 * which a program can pass on through a CPI only when the fee payer is among its own accounts.
 */
export function checkMemo(state: WalkState, ix: TransactionInstruction, index: number): void {
  assertNoFeePayer(state, ix, index);
  state.memos.push(Buffer.from(ix.data).toString('utf8'));
}

export function checkExtraProgram(state: WalkState, ix: TransactionInstruction, index: number): void {
  assertNoFeePayer(state, ix, index);
}
