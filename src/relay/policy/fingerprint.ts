import type { TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../errors/relay-error.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../crypto/base58.ts';

/** Rule F2: no instruction may repeat an earlier one (same program, data and accounts). */
export function assertNotRepeated(state: WalkState, ix: TransactionInstruction, index: number): void {
  const fingerprint = `${addressOf(ix.programId)}:${Buffer.from(ix.data).toString('base64')}:${ix.keys.map((key) => addressOf(key.pubkey)).join(',')}`;
  if (state.seen.has(fingerprint)) {
    throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} repeats an earlier instruction.`, { rule: 'F2' });
  }
  state.seen.add(fingerprint);
}

/** Rule F2: no account may be created twice in one transaction (by two instruction forms). */
export function assertNotCreatedTwice(state: WalkState, account: string, index: number): void {
  if (state.creates(account)) {
    throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} creates ${account}, which an earlier instruction already creates.`, { rule: 'F2' });
  }
}
