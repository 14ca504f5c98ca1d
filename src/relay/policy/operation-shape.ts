import { RelayError } from '../../errors/relay-error.ts';
import type { PolicyVerdict, RelayOperation } from './types.ts';
import type { WalkState } from './walk-state.ts';

type Kind = 'create' | 'transfer' | 'close';

const SHAPES: Record<RelayOperation, { required: Kind; forbidden: Kind[] }> = {
  create: { required: 'create', forbidden: ['transfer', 'close'] },
  close: { required: 'close', forbidden: ['create', 'transfer'] },
  send: { required: 'transfer', forbidden: ['close'] },
  sendbatch: { required: 'transfer', forbidden: ['close'] },
};

const PHRASES: Record<Kind, { may: string; must: string }> = {
  create: { may: 'create accounts', must: 'create a token account' },
  transfer: { may: 'transfer tokens', must: 'transfer tokens' },
  close: { may: 'close accounts', must: 'close a token account' },
};

/**
 * Once every instruction passed (rules A3, A6, O1, O2): every funded account was initialized and
 * handed its close authority to the fee payer, and the transaction does what the endpoint relays.
 */
export function finishWalk(state: WalkState): PolicyVerdict {
  for (const account of state.pendingPlain) {
    throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Account ${account} is funded by the fee payer but never initialized as a token account.`, { rule: 'A3' });
  }
  for (const created of state.created.values()) {
    if (!created.closeAuthoritySet) {
      throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', `Token account ${created.account} is funded by the fee payer but its close authority is not set to the fee payer.`, { rule: 'A6' });
    }
  }
  const created = [...state.created.values()].map(({ closeAuthoritySet: _, ...account }) => account);
  const counts: Record<Kind, number> = { create: created.length, transfer: state.transfers.length, close: state.closed.length };
  const { operation } = state.context;
  const { required, forbidden } = SHAPES[operation];
  const stray = forbidden.find((kind) => counts[kind] > 0);
  if (stray) {
    throw new RelayError('OPERATION_MISMATCH', `A ${operation} transaction may not ${PHRASES[stray].may}.`, { rule: 'O1' });
  }
  if (counts[required] === 0) {
    const anything = counts.create + counts.transfer + counts.close > 0;
    throw new RelayError(anything ? 'OPERATION_MISMATCH' : 'NO_OPERATION', `A ${operation} transaction must ${PHRASES[required].must}.`, { rule: anything ? 'O1' : 'O2' });
  }
  return { created, transfers: state.transfers, closed: state.closed, memos: state.memos };
}
