import type { TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../errors/relay-error.ts';
import { decodeTokenAccount } from '../../ledger/token-accounts.ts';
import { PROGRAMS } from '../programs.ts';
import { assertFeePayerOnlyAt } from './fee-payer-roles.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../crypto/base58.ts';

/**
 * CloseAccount (rules K1–K4, P2, F1): of an account that exists on the ledger before this
 * transaction, is empty and not frozen, whose close authority is the fee payer, with the fee payer
 * as authority and as the destination of the rent.
 */
export async function checkClose(state: WalkState, ix: TransactionInstruction, index: number): Promise<void> {
  const [account, destination, authority] = ix.keys.map((key) => key.pubkey);
  if (!account || !destination || !authority || ix.data.length !== 1) {
    assertFeePayerOnlyAt(state, ix, index, [1, 2]);
    throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a malformed CloseAccount.`, { rule: 'T2' });
  }
  const address = addressOf(account);
  if (state.creates(address)) {
    throw new RelayError('CREATE_AND_CLOSE_NOT_ALLOWED', `Instruction ${index} closes ${address}, which this transaction creates: the relay does not fund accounts to close them at once.`, { rule: 'K1' });
  }
  if (!destination.equals(state.feePayer)) {
    throw new RelayError('CLOSE_DESTINATION_NOT_FEE_PAYER', `Instruction ${index} sends the rent of ${address} to ${addressOf(destination)}, not the fee payer.`, { rule: 'K2' });
  }
  if (!authority.equals(state.feePayer)) {
    throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', `Instruction ${index} closes ${address} with an authority other than the fee payer.`, { rule: 'K3' });
  }
  assertFeePayerOnlyAt(state, ix, index, [1, 2]);
  const token = decodeTokenAccount(await state.context.getAccount(account));
  if (token?.programId === addressOf(PROGRAMS.token2022)) {
    throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} closes ${address}, a Token-2022 account, which the relay does not sponsor.`, { rule: 'P2' });
  }
  if (!token) {
    throw new RelayError('ACCOUNT_NOT_CLOSABLE', `Instruction ${index}: ${address} is not an SPL Token account on the ledger.`, { rule: 'K4' });
  }
  if (token.closeAuthority !== addressOf(state.feePayer)) {
    throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', `The close authority of ${address} is ${token.closeAuthority ?? 'its owner'}, not the fee payer.`, { rule: 'K3' });
  }
  if (token.amount > 0n || token.state === 'frozen') {
    throw new RelayError('ACCOUNT_NOT_CLOSABLE', `Instruction ${index}: ${address} ${token.state === 'frozen' ? 'is frozen' : `still holds ${token.amount} base units`}; only an empty, unfrozen account can be closed.`, { rule: 'K4' });
  }
  if (state.closed.includes(address)) {
    throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} closes ${address} a second time.`, { rule: 'F2' });
  }
  state.closed.push(address);
}
