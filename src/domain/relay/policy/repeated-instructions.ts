import type { TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';

/**
 * Rule F2: no instruction may repeat an earlier one (same program, data and accounts).
 *
 * Compared with each earlier instruction, field by field, cheapest first, instead of a text
 * fingerprint (addresses, base64 data) made for every instruction: most transactions hold one or
 * two instructions, and the fingerprint was ~1 % of a relayed transfer's CPU under the profiler (BENCHMARKS.md, "Measured reasons").
 */
export function assertNotRepeated(state: WalkState, ix: TransactionInstruction, index: number): void {
  if (state.seen.some((earlier) => sameInstruction(earlier, ix))) {
    throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} repeats an earlier instruction.`, { rule: 'F2' });
  }
  state.seen.push(ix);
}

function sameInstruction(a: TransactionInstruction, b: TransactionInstruction): boolean {
  if (a.data.length !== b.data.length || a.keys.length !== b.keys.length || addressOf(a.programId) !== addressOf(b.programId)) return false;
  for (let index = 0; index < a.keys.length; index += 1) {
    if (addressOf(a.keys[index]!.pubkey) !== addressOf(b.keys[index]!.pubkey)) return false;
  }
  return Buffer.from(a.data.buffer, a.data.byteOffset, a.data.length).equals(b.data);
}

/** Rule F2: no account may be created twice in one transaction (by two instruction forms). */
export function assertNotCreatedTwice(state: WalkState, account: string, index: number): void {
  if (state.creates(account)) {
    throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} creates ${account}, which an earlier instruction already creates.`, { rule: 'F2' });
  }
}
