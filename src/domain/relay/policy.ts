import { TransactionMessage, type TransactionInstruction, type VersionedTransaction } from '@solana/web3.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import { checkAssociatedToken } from './policy/associated-token-rules.ts';
import { checkComputeBudget } from './policy/compute-budget-rules.ts';
import { assertNotRepeated } from './policy/repeated-instructions.ts';
import { finishWalk } from './policy/operation-shape.ts';
import { checkAppProgram, checkExtraProgram, checkMemo } from './policy/roleless-programs.ts';
import { checkSystem } from './policy/system-rules.ts';
import { checkToken } from './policy/token-rules.ts';
import type { PolicyContext, PolicyVerdict } from './policy/types.ts';
import { WalkState } from './policy/walk-state.ts';
import { PROGRAMS } from './programs.ts';
import { addressOf } from '../../base/crypto/key-cache.ts';

export { checkDurableNonce } from './policy/durable-nonce.ts';
export type { CreatedAccount, PolicyContext, PolicyVerdict, RelayOperation, SolTransfer, StrictBreak, TokenTransfer } from './policy/types.ts';

/**
 * The fee-payer policy: decides, for an operation, whether the relay sponsors a transaction, and
 * what the transaction does once it passes.
 *
 * Every rule is written once, in the table "Fee-payer policy" of openapi/relay.yaml
 * (info.description), with a stable id (W1…O2) and the code it answers; each check in the code
 * cites its id as `(rule X)`, and test/adversarial.engines.test.ts breaks each rule through the API and
 * checks that it answers the code the table gives. The wire
 * rules (W) live in wire.ts, the signature rules (S) in signatures.ts, replay (R) and the
 * pipeline order in accept-pipeline.ts, and the instruction rules here and in policy/, one file
 * per program family. The options are PolicyOptions (policy-options.ts). A rule only the strict
 * profile enforces goes through WalkState.strictOnly: under `faithful` the verdict lists it, with
 * the lamports it exposes, instead of refusing (test/policy-profiles.engines.test.ts relaxes each rule the
 * table's `faithful` column names, and checks the code recorded).
 *
 * Expects a transaction from decodeWireTransaction: sanitized, with static account keys only.
 */
export async function checkPolicy(tx: VersionedTransaction, context: PolicyContext): Promise<PolicyVerdict> {
  const instructions = TransactionMessage.decompile(tx.message).instructions;
  const state = new WalkState(context);
  for (const [index, instruction] of instructions.entries()) {
    await visit(state, instruction, index);
  }
  return finishWalk(state);
}

/** One instruction, in transaction order: what it may do depends on what came before. */
async function visit(state: WalkState, ix: TransactionInstruction, index: number): Promise<void> {
  assertNotRepeated(state, ix, index);
  const program = ix.programId;
  if (program.equals(PROGRAMS.computeBudget)) return checkComputeBudget(state, ix, index);
  if (program.equals(PROGRAMS.memo) || program.equals(PROGRAMS.memoV1)) return checkMemo(state, ix, index);
  if (program.equals(PROGRAMS.associatedToken)) return checkAssociatedToken(state, ix, index);
  if (program.equals(PROGRAMS.system)) return checkSystem(state, ix, index);
  if (program.equals(PROGRAMS.token)) return checkToken(state, ix, index);
  if (program.equals(PROGRAMS.token2022)) {
    throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} calls Token-2022, which the relay does not sponsor.`, { rule: 'P2' });
  }
  if (state.context.appPrograms.has(addressOf(program))) return checkAppProgram(state, ix, index);
  if (state.context.options.extraPrograms.includes(addressOf(program))) return checkExtraProgram(state, ix, index);
  throw new RelayError('PROGRAM_NOT_ALLOWED', `Instruction ${index} calls ${addressOf(program)}, which the relay does not sponsor.`, { rule: 'P1' });
}
