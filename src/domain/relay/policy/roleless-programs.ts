import type { TransactionInstruction } from '@solana/web3.js';
import { addressOf } from '../../../base/crypto/key-cache.ts';
import { RelayError } from '../../../base/errors/relay-error.ts';
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

/**
 * An instruction of one of the app's own programs (rules P1, F3): sponsored, and counted as what a
 * send relays. When it lists the fee payer (Anchor's `payer = …`, a program that takes the payer as
 * a signer), a program can spend the fee payer's lamports through a CPI: strict refuses it; faithful
 * lets the pipeline simulate the transaction and weigh what the fee payer would lose (F3).
 */
export function checkAppProgram(state: WalkState, ix: TransactionInstruction, index: number): void {
  const program = addressOf(ix.programId);
  state.calls.push(program);
  if (!ix.keys.some((key) => key.pubkey.equals(state.feePayer))) return;
  if (state.context.options.profile === 'strict') {
    throw new RelayError(
      'FEE_PAYER_MISUSE',
      `Instruction ${index} gives the fee payer to the app's program ${program}, which could spend it through a CPI; the strict profile does not allow that.`,
      { rule: 'F3' },
    );
  }
  state.feePayerCalls.push(index);
}
