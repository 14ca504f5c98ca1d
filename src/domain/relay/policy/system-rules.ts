import { ACCOUNT_SIZE } from '../../ledger/spl-token.ts';
import { PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { NATIVE_MINT_ADDRESS, PROGRAMS, SYSTEM_INSTRUCTION } from '../programs.ts';
import { isNonceInstruction, systemInstructionTag } from './durable-nonce.ts';
import { assertFeePayerOnlyAt, assertNoFeePayer } from './fee-payer-roles.ts';
import { assertNotCreatedTwice } from './repeated-instructions.ts';
import { checkAllowedMint } from './mint-rules.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';

/**
 * System Program (rules N2, A2, A4, P2, F1, F2, T1, T2): the fee payer's `createAccount` of a
 * 165-byte SPL Token account at exactly its rent-exempt minimum, signed by the new account; and,
 * under `faithful` only, a transfer of SOL from a wallet that signs it (altude-js sends SOL so),
 * which costs the fee payer the fee alone. Nonce instructions are refused whoever their authority;
 * everything else is refused, as FEE_PAYER_MISUSE when it involves the fee payer.
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
  const refusal = `Instruction ${index} is a System Program instruction the relay does not sponsor.`;
  const to = ix.keys[1];
  if (systemInstructionTag(ix.data) === SYSTEM_INSTRUCTION.Transfer && ix.data.length === 12 && from?.isSigner && to && ix.keys.length === 2) {
    state.strictOnly('INSTRUCTION_NOT_ALLOWED', 'T2', refusal, { account: null, exposure: 0n });
    checkAllowedMint(state, addressOf(NATIVE_MINT_ADDRESS), index, 'T1');
    state.solTransfers.push({ source: addressOf(from.pubkey), destination: addressOf(to.pubkey), lamports: Buffer.from(ix.data).readBigUInt64LE(4) });
    return;
  }
  throw new RelayError('INSTRUCTION_NOT_ALLOWED', refusal, { rule: 'T2' });
}

async function checkFundedAccount(
  state: WalkState,
  ix: TransactionInstruction,
  index: number,
  created: TransactionInstruction['keys'][number] | undefined,
): Promise<void> {
  const data = Buffer.from(ix.data);
  const rent = state.context.tokenAccountRent;
  const shape = `a ${ACCOUNT_SIZE}-byte SPL Token account funded with exactly its rent-exempt minimum (${rent} lamports) and signed by the new account`;
  if (data.length !== 52 || !created) {
    throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} is a malformed createAccount from the fee payer; the relay funds only ${shape}.`, {
      rule: 'A2',
    });
  }
  const lamports = data.readBigUInt64LE(4);
  const space = data.readBigUInt64LE(12);
  const owner = new PublicKey(data.subarray(20, 52));
  if (owner.equals(PROGRAMS.token2022)) {
    throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} funds a Token-2022 account, which the relay does not sponsor.`, { rule: 'P2' });
  }
  assertFeePayerOnlyAt(state, ix, index, [0]);
  if (!owner.equals(PROGRAMS.token) || space !== BigInt(ACCOUNT_SIZE) || lamports !== rent || !created.isSigner) {
    throw new RelayError(
      'FEE_PAYER_MISUSE',
      `Instruction ${index} makes the fee payer fund ${lamports} lamports, ${space} bytes for ${addressOf(owner)}; the relay funds only ${shape}.`,
      { rule: 'A2' },
    );
  }
  const account = addressOf(created.pubkey);
  assertNotCreatedTwice(state, account, index);
  if (await state.context.getAccount(created.pubkey)) {
    throw new RelayError(
      'ACCOUNT_ALREADY_EXISTS',
      `Instruction ${index} creates ${account}, which already exists: the creation would fail at the fee payer's cost.`,
      { rule: 'A4' },
    );
  }
  state.pendingPlain.add(account);
}
