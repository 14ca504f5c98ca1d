import { ACCOUNT_SIZE } from '@solana/spl-token';
import { PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../errors/relay-error.ts';
import { PROGRAMS, SYSTEM_INSTRUCTION } from '../programs.ts';
import { isNonceInstruction, systemInstructionTag } from './durable-nonce.ts';
import { assertFeePayerOnlyAt, assertNoFeePayer } from './fee-payer-roles.ts';
import { assertNotCreatedTwice } from './fingerprint.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../crypto/base58.ts';

/**
 * System Program (rules N2, A2, A4, P2, F1, F2, T2): the only instruction sponsored is the
 * fee payer's `createAccount` of a 165-byte SPL Token account at exactly its rent-exempt minimum,
 * signed by the new account. Nonce instructions are refused whoever their authority; everything
 * else is refused, as FEE_PAYER_MISUSE when it involves the fee payer.
 */
export async function checkSystem(state: WalkState, ix: TransactionInstruction, index: number): Promise<void> {
  if (isNonceInstruction(ix.data)) {
    throw new RelayError('DURABLE_NONCE_NOT_ALLOWED', `Instruction ${index} is a durable-nonce instruction, which the relay does not sponsor.`, { rule: 'N2' });
  }
  const [from, created] = ix.keys;
  if (systemInstructionTag(ix.data) === SYSTEM_INSTRUCTION.CreateAccount && from?.pubkey.equals(state.feePayer)) {
    return checkFundedAccount(state, ix, index, created);
  }
  assertNoFeePayer(state, ix, index);
  throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a System Program instruction the relay does not sponsor.`, { rule: 'T2' });
}

async function checkFundedAccount(state: WalkState, ix: TransactionInstruction, index: number, created: TransactionInstruction['keys'][number] | undefined): Promise<void> {
  const data = Buffer.from(ix.data);
  const rent = state.context.tokenAccountRent;
  const shape = `a ${ACCOUNT_SIZE}-byte SPL Token account funded with exactly its rent-exempt minimum (${rent} lamports) and signed by the new account`;
  if (data.length !== 52 || !created) {
    throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} is a malformed createAccount from the fee payer; the relay funds only ${shape}.`, { rule: 'A2' });
  }
  const lamports = data.readBigUInt64LE(4);
  const space = data.readBigUInt64LE(12);
  const owner = new PublicKey(data.subarray(20, 52));
  if (owner.equals(PROGRAMS.token2022)) {
    throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} funds a Token-2022 account, which the relay does not sponsor.`, { rule: 'P2' });
  }
  assertFeePayerOnlyAt(state, ix, index, [0]);
  if (!owner.equals(PROGRAMS.token) || space !== BigInt(ACCOUNT_SIZE) || lamports !== rent || !created.isSigner) {
    throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} makes the fee payer fund ${lamports} lamports, ${space} bytes for ${addressOf(owner)}; the relay funds only ${shape}.`, { rule: 'A2' });
  }
  const account = addressOf(created.pubkey);
  assertNotCreatedTwice(state, account, index);
  if (await state.context.getAccount(created.pubkey)) {
    throw new RelayError('ACCOUNT_ALREADY_EXISTS', `Instruction ${index} creates ${account}, which already exists: the creation would fail at the fee payer's cost.`, { rule: 'A4' });
  }
  state.pendingPlain.add(account);
}
