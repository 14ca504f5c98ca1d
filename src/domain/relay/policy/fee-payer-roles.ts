import type { TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';

/**
 * Rule F1: the fee payer may appear among an instruction's accounts only at the given positions.
 * It is account 0 of the message, hence a writable signer wherever it is listed, so any other
 * appearance would let the program (or a program it invokes) sign or pay with it.
 */
export function assertFeePayerOnlyAt(state: WalkState, ix: TransactionInstruction, index: number, allowed: readonly number[]): void {
  ix.keys.forEach((key, position) => {
    if (key.pubkey.equals(state.feePayer) && !allowed.includes(position)) {
      throw new RelayError(
        'FEE_PAYER_MISUSE',
        `Instruction ${index} (${addressOf(ix.programId)}) lists the fee payer as its account ${position}, where it would be a writable signer; the ` +
          `relay does not allow that.`,
        { rule: 'F1' },
      );
    }
  });
}

/** Rule F1 for an instruction that has no fee-payer role at all. */
export function assertNoFeePayer(state: WalkState, ix: TransactionInstruction, index: number): void {
  assertFeePayerOnlyAt(state, ix, index, []);
}
