import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { decodeTokenAccount, type TokenAccountState } from '../../ledger/token-accounts.ts';
import { PROGRAMS } from '../programs.ts';
import { assertFeePayerOnlyAt } from './fee-payer-roles.ts';
import type { WalkState } from './walk-state.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';

/**
 * CloseAccount (rules K1–K4, P2, F1): of an account that exists on the ledger before this
 * transaction, is empty and not frozen, whose close authority is the fee payer, with the fee payer
 * as authority and as the destination of the rent. Under `faithful`, also the close of an account
 * by its own close authority when that is not the fee payer (Android closes so an account created
 * without a hand-over): the rent was never the fee payer's to get back, so it pays the fee alone.
 */
export async function checkClose(state: WalkState, ix: TransactionInstruction, index: number): Promise<void> {
  const [account, destination, authority] = ix.keys.map((key) => key.pubkey);
  if (!account || !destination || !authority || ix.data.length !== 1) {
    assertFeePayerOnlyAt(state, ix, index, [1, 2]);
    throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Instruction ${index} is a malformed CloseAccount.`, { rule: 'T2' });
  }
  const address = addressOf(account);
  if (state.creates(address)) {
    throw new RelayError(
      'CREATE_AND_CLOSE_NOT_ALLOWED',
      `Instruction ${index} closes ${address}, which this transaction creates: the relay does not fund accounts to close them at once.`,
      { rule: 'K1' },
    );
  }
  const holders = await holdersOwnClose(state, ix, account, authority);
  if (holders) {
    if (!destination.equals(state.feePayer)) {
      state.strictOnly(
        'CLOSE_DESTINATION_NOT_FEE_PAYER',
        'K2',
        `Instruction ${index} sends the rent of ${address} to ${addressOf(destination)}, not the fee payer.`,
        { account: address, exposure: 0n },
      );
    }
    state.strictOnly('CLOSE_AUTHORITY_NOT_FEE_PAYER', 'K3', `Instruction ${index} closes ${address} with an authority other than the fee payer.`, {
      account: address,
      exposure: 0n,
    });
    assertFeePayerOnlyAt(state, ix, index, [1]);
    return finishClose(state, holders, address, index);
  }
  if (!destination.equals(state.feePayer)) {
    throw new RelayError(
      'CLOSE_DESTINATION_NOT_FEE_PAYER',
      `Instruction ${index} sends the rent of ${address} to ${addressOf(destination)}, not the fee payer.`,
      { rule: 'K2' },
    );
  }
  if (!authority.equals(state.feePayer)) {
    throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', `Instruction ${index} closes ${address} with an authority other than the fee payer.`, { rule: 'K3' });
  }
  assertFeePayerOnlyAt(state, ix, index, [1, 2]);
  const token = decodeTokenAccount(await state.context.getAccount(account));
  if (token?.programId === addressOf(PROGRAMS.token2022)) {
    throw new RelayError('TOKEN_2022_UNSUPPORTED', `Instruction ${index} closes ${address}, a Token-2022 account, which the relay does not sponsor.`, {
      rule: 'P2',
    });
  }
  if (!token) {
    throw new RelayError('ACCOUNT_NOT_CLOSABLE', `Instruction ${index}: ${address} is not an SPL Token account on the ledger.`, { rule: 'K4' });
  }
  if (token.closeAuthority !== addressOf(state.feePayer)) {
    throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', `The close authority of ${address} is ${token.closeAuthority ?? 'its owner'}, not the fee payer.`, {
      rule: 'K3',
    });
  }
  finishClose(state, token, address, index);
}

/**
 * The SPL Token account being closed, when the instruction's authority (not the fee payer, and a
 * signer) is the account's own close authority on the ledger: its close authority, or its owner
 * when none is set. The fee payer is then only the fee's payer, and may not be the authority.
 */
async function holdersOwnClose(state: WalkState, ix: TransactionInstruction, account: PublicKey, authority: PublicKey): Promise<TokenAccountState | null> {
  if (authority.equals(state.feePayer) || !ix.keys[2]!.isSigner) return null;
  const token = decodeTokenAccount(await state.context.getAccount(account));
  if (!token || token.programId !== addressOf(PROGRAMS.token)) return null;
  if ((token.closeAuthority ?? token.owner) !== addressOf(authority)) return null;
  return token;
}

/** Rules F1, K4 and F2, whoever closes: the fee payer only as the rent's destination or authority, an empty unfrozen account, once. */
function finishClose(state: WalkState, token: TokenAccountState, address: string, index: number): void {
  if (token.amount > 0n || token.state === 'frozen') {
    throw new RelayError(
      'ACCOUNT_NOT_CLOSABLE',
      `Instruction ${index}: ${address} ${token.state === 'frozen' ? 'is frozen' : `still holds ${token.amount} base units`}; only an empty, unfrozen ` +
        `account can be closed.`,
      { rule: 'K4' },
    );
  }
  if (state.closed.includes(address)) {
    throw new RelayError('DUPLICATE_INSTRUCTION', `Instruction ${index} closes ${address} a second time.`, { rule: 'F2' });
  }
  state.closed.push(address);
}
