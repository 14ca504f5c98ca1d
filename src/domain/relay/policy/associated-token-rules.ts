import { associatedTokenAddress } from '../../ledger/spl-token.ts';
import type { TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { decodeTokenAccount } from '../../ledger/token-accounts.ts';
import { ASSOCIATED_TOKEN_INSTRUCTION, PROGRAMS } from '../programs.ts';
import { assertFeePayerOnlyAt } from './fee-payer-roles.ts';
import { assertNotCreatedTwice } from './repeated-instructions.ts';
import { checkNewAccountMint } from './mint-rules.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';

/**
 * Associated token account creation (rules A1, A4, A5, P1, P2, F1, F2): Create or CreateIdempotent,
 * paid by the fee payer, of the owner's own associated token account for an SPL Token mint. A
 * CreateIdempotent that finds the token account on the ledger is relayed as funding nothing.
 */
export async function checkAssociatedToken(state: WalkState, ix: TransactionInstruction, index: number): Promise<void> {
  const kind = ix.data.length === 0 ? ASSOCIATED_TOKEN_INSTRUCTION.Create : ix.data[0];
  const [payer, account, owner, mint, systemProgram, tokenProgram] = ix.keys.map((key) => key.pubkey);
  if (tokenProgram?.equals(PROGRAMS.token2022)) {
    throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} creates a Token-2022 account, which the relay does not sponsor.`, { rule: 'P2' });
  }
  assertFeePayerOnlyAt(state, ix, index, [0]);
  const creates = kind === ASSOCIATED_TOKEN_INSTRUCTION.Create || kind === ASSOCIATED_TOKEN_INSTRUCTION.CreateIdempotent;
  if (!creates || ix.data.length > 1 || !payer || !account || !owner || !mint || !tokenProgram || !systemProgram?.equals(PROGRAMS.system)) {
    throw new RelayError(
      'INSTRUCTION_NOT_ALLOWED',
      `Instruction ${index} is an associated-token instruction other than a well-formed Create or CreateIdempotent (payer, account, owner, mint, ` +
        `System Program, token program).`,
      { rule: 'A1' },
    );
  }
  if (!tokenProgram.equals(PROGRAMS.token)) {
    throw new RelayError('PROGRAM_NOT_ALLOWED', `Instruction ${index} names ${addressOf(tokenProgram)} as the token program.`, { rule: 'P1' });
  }
  if (!payer.equals(state.feePayer)) {
    throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} must be paid by the fee payer.`, { rule: 'A1' });
  }
  if (!associatedTokenAddress(mint, owner, tokenProgram).equals(account)) {
    throw new RelayError(
      'INSTRUCTION_NOT_ALLOWED',
      `Instruction ${index}: ${addressOf(account)} is not the associated token account of ${addressOf(owner)} for ${addressOf(mint)}.`,
      { rule: 'A1' },
    );
  }
  assertNotCreatedTwice(state, addressOf(account), index);
  const existing = await state.context.getAccount(account);
  if (existing && kind === ASSOCIATED_TOKEN_INSTRUCTION.Create) {
    throw new RelayError(
      'ACCOUNT_ALREADY_EXISTS',
      `Instruction ${index} creates ${addressOf(account)}, which already exists: the creation would fail at the fee payer's cost. Use ` +
        `CreateIdempotent, or skip it.`,
      { rule: 'A4' },
    );
  }
  const onLedger = decodeTokenAccount(existing);
  const entry = { account: addressOf(account), owner: addressOf(owner), mint: addressOf(mint), kind: 'associated' as const };
  if (onLedger) {
    // CreateIdempotent of a token account that is there already funds nothing (gill's transfer
    // builder always sends one for the recipient): no mint rule, no hand-over. One whose close
    // authority is the fee payer already cannot be handed over again (the owner could not sign it).
    state.created.set(entry.account, { ...entry, funded: false, closeAuthoritySet: onLedger.closeAuthority === addressOf(state.feePayer) });
    return;
  }
  await checkNewAccountMint(state, mint, index, entry.account);
  state.created.set(entry.account, { ...entry, funded: true, closeAuthoritySet: false });
}
