import { PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { decodeTokenAccount } from '../../ledger/token-accounts.ts';
import { AUTHORITY_TYPE_CLOSE_ACCOUNT, PROGRAMS, TOKEN_INSTRUCTION } from '../programs.ts';
import { checkClose } from './close-rules.ts';
import { assertNoFeePayer } from './fee-payer-roles.ts';
import { checkAllowedMint, checkNewAccountMint } from './mint-rules.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';

/**
 * SPL Token (rules A3, A6, A7, K1–K4, T1, T2, F1): InitializeAccount of an account this transaction
 * funded, SetAuthority of its close authority to the fee payer, transfers, and CloseAccount.
 * Everything else is refused, as FEE_PAYER_MISUSE when it involves the fee payer.
 */
export async function checkToken(state: WalkState, ix: TransactionInstruction, index: number): Promise<void> {
  const data = Buffer.from(ix.data);
  switch (data[0]) {
    case TOKEN_INSTRUCTION.InitializeAccount:
    case TOKEN_INSTRUCTION.InitializeAccount2:
    case TOKEN_INSTRUCTION.InitializeAccount3:
      return checkInitializeAccount(state, ix, index, data);
    case TOKEN_INSTRUCTION.SetAuthority:
      return checkSetAuthority(state, ix, index, data);
    case TOKEN_INSTRUCTION.Transfer:
    case TOKEN_INSTRUCTION.TransferChecked:
      return checkTransfer(state, ix, index, data);
    case TOKEN_INSTRUCTION.CloseAccount:
      return checkClose(state, ix, index);
    default:
      assertNoFeePayer(state, ix, index);
      throw new RelayError(
        'INSTRUCTION_NOT_ALLOWED',
        `Instruction ${index} is an SPL Token instruction (tag ${data[0] ?? 'none'}) the relay does not sponsor.`,
        { rule: 'T2' },
      );
  }
}

/** Rule A3: initializes, with an owner other than the fee payer, an account this transaction funded. */
async function checkInitializeAccount(state: WalkState, ix: TransactionInstruction, index: number, data: Buffer): Promise<void> {
  assertNoFeePayer(state, ix, index);
  const [account, mint, ownerKey] = ix.keys.map((key) => key.pubkey);
  const owner = data[0] === TOKEN_INSTRUCTION.InitializeAccount ? ownerKey : data.length === 33 ? new PublicKey(data.subarray(1, 33)) : undefined;
  if (!account || !mint || !owner || (data[0] === TOKEN_INSTRUCTION.InitializeAccount && data.length !== 1)) {
    throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a malformed InitializeAccount.`, { rule: 'A3' });
  }
  if (owner.equals(state.feePayer)) {
    throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} makes the fee payer own a token account.`, { rule: 'F1' });
  }
  if (!state.pendingPlain.has(addressOf(account))) {
    throw new RelayError(
      'INSTRUCTION_NOT_ALLOWED',
      `Instruction ${index} initializes ${addressOf(account)}, which no earlier instruction of this transaction funded.`,
      { rule: 'A3' },
    );
  }
  await checkNewAccountMint(state, mint, index, addressOf(account));
  state.pendingPlain.delete(addressOf(account));
  state.created.set(addressOf(account), {
    account: addressOf(account),
    owner: addressOf(owner),
    mint: addressOf(mint),
    kind: 'plain',
    funded: true,
    closeAuthoritySet: false,
  });
}

/**
 * Rules A6 and A7: the one SetAuthority sponsored hands the close authority of an account created
 * in this transaction to the fee payer, signed by its owner.
 */
function checkSetAuthority(state: WalkState, ix: TransactionInstruction, index: number, data: Buffer): void {
  assertNoFeePayer(state, ix, index);
  const [account, currentAuthority] = ix.keys.map((key) => key.pubkey);
  const created = account ? state.created.get(addressOf(account)) : undefined;
  const hasNewAuthority = data.length === 35 && data[2] === 1;
  const newAuthority = hasNewAuthority ? new PublicKey(data.subarray(3, 35)) : null;
  const setsCloseAuthority = (data.length === 35 || data.length === 3) && data[1] === AUTHORITY_TYPE_CLOSE_ACCOUNT;
  if (created && setsCloseAuthority && !newAuthority?.equals(state.feePayer)) {
    throw new RelayError(
      'CLOSE_AUTHORITY_NOT_FEE_PAYER',
      `Instruction ${index} sets the close authority of ${created.account}, funded by the fee payer, to ` +
        `${(newAuthority ? addressOf(newAuthority) : null) ?? 'nobody'}; it must be the fee payer.`,
      { rule: 'A6' },
    );
  }
  if (!created || !setsCloseAuthority || (currentAuthority ? addressOf(currentAuthority) : undefined) !== created.owner || created.closeAuthoritySet) {
    throw new RelayError(
      'INSTRUCTION_NOT_ALLOWED',
      `Instruction ${index}: the only SetAuthority sponsored sets the close authority of an account created in this transaction to the fee payer, ` +
        `once, signed by its owner.`,
      { rule: 'A7' },
    );
  }
  created.closeAuthoritySet = true;
}

/** Rules T1 and F1: a transfer is never authorised by the fee payer, and moves a sponsored mint. */
async function checkTransfer(state: WalkState, ix: TransactionInstruction, index: number, data: Buffer): Promise<void> {
  const checked = data[0] === TOKEN_INSTRUCTION.TransferChecked;
  const keys = ix.keys.map((key) => key.pubkey);
  const [source] = keys;
  const destination = keys[checked ? 2 : 1];
  const authority = keys[checked ? 3 : 2];
  if (authority?.equals(state.feePayer)) {
    throw new RelayError('FEE_PAYER_MISUSE', `Instruction ${index} transfers tokens with the fee payer as authority.`, { rule: 'F1' });
  }
  assertNoFeePayer(state, ix, index);
  if (!source || !destination || !authority || data.length !== (checked ? 10 : 9)) {
    throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a malformed token transfer.`, { rule: 'T2' });
  }
  const created = state.created.get(addressOf(source));
  const onLedger = created ? null : decodeTokenAccount(await state.context.getAccount(source));
  if (onLedger?.programId === addressOf(PROGRAMS.token2022)) {
    throw new RelayError(
      'TOKEN_2022_UNSUPPORTED',
      `Instruction ${index} moves tokens out of ${addressOf(source)}, a Token-2022 account, which the relay does not sponsor.`,
      { rule: 'P2' },
    );
  }
  const mint = checked ? addressOf(keys[1]!) : (created?.mint ?? onLedger?.mint ?? null);
  checkAllowedMint(state, mint, index, 'T1');
  state.transfers.push({
    source: addressOf(source),
    destination: addressOf(destination),
    authority: addressOf(authority),
    amount: data.readBigUInt64LE(1),
    mint,
    decimals: checked ? data[9]! : null,
  });
}
