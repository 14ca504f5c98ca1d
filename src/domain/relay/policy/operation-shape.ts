import { RelayError } from '../../../base/errors/relay-error.ts';
import type { PolicyVerdict, RelayOperation, StrictBreak } from './types.ts';
import type { WalkState } from './walk-state.ts';

type Kind = 'create' | 'transfer' | 'close' | 'call';

/** `or`: a kind that stands for the required one (a call of the app's own program is what a send relays too). */
const SHAPES: Record<RelayOperation, { required: Kind; or?: Kind; forbidden: Kind[]; faithfulAlso?: Kind }> = {
  create: { required: 'create', forbidden: ['transfer', 'close', 'call'] },
  close: { required: 'close', forbidden: ['create', 'transfer', 'call'] },
  // The dynamic demo posts its account-creation transaction to Transaction/send as well.
  send: { required: 'transfer', or: 'call', forbidden: ['close'], faithfulAlso: 'create' },
  sendbatch: { required: 'transfer', or: 'call', forbidden: ['close'], faithfulAlso: 'create' },
};

const PHRASES: Record<Kind, { may: string; must: string }> = {
  create: { may: 'create accounts', must: 'create a token account' },
  transfer: { may: 'transfer tokens', must: 'transfer tokens' },
  close: { may: 'close accounts', must: 'close a token account' },
  call: { may: "call the app's own programs", must: "call the app's own programs" },
};

/**
 * Once every instruction passed (rules A3, A6, O1, O2): every funded account was initialized and
 * handed its close authority to the fee payer, and the transaction does what the endpoint relays.
 * Under `faithful`, an account that receives a transfer in the same transaction may keep its
 * owner as close authority (its owner, the recipient, cannot sign a hand-over), and a send may only
 * create accounts; both are recorded.
 */
export function finishWalk(state: WalkState): PolicyVerdict {
  for (const account of state.pendingPlain) {
    throw new RelayError('INSTRUCTION_NOT_ALLOWED', `Account ${account} is funded by the fee payer but never initialized as a token account.`, { rule: 'A3' });
  }
  const received = new Set(state.transfers.map((transfer) => transfer.destination));
  for (const created of state.created.values()) {
    if (!created.funded || created.closeAuthoritySet) continue;
    const detail = `Token account ${created.account} is funded by the fee payer but its close authority is not set to the fee payer.`;
    if (!received.has(created.account)) {
      throw new RelayError('CLOSE_AUTHORITY_NOT_FEE_PAYER', detail, { rule: 'A6' });
    }
    state.strictOnly('CLOSE_AUTHORITY_NOT_FEE_PAYER', 'A6', detail, { account: created.account, exposure: state.context.tokenAccountRent });
  }
  const created = [...state.created.values()].map(({ closeAuthoritySet: _, ...account }) => account);
  const counts: Record<Kind, number> = {
    create: created.length,
    transfer: state.transfers.length + state.solTransfers.length,
    close: state.closed.length,
    call: state.calls.length,
  };
  const { operation } = state.context;
  const { required, or, forbidden, faithfulAlso } = SHAPES[operation];
  const stray = forbidden.find((kind) => counts[kind] > 0);
  if (stray) {
    throw new RelayError('OPERATION_MISMATCH', `A ${operation} transaction may not ${PHRASES[stray].may}.`, { rule: 'O1' });
  }
  if (counts[required] === 0 && (or === undefined || counts[or] === 0)) {
    const anything = counts.create + counts.transfer + counts.close + counts.call > 0;
    const detail = `A ${operation} transaction must ${PHRASES[required].must}.`;
    if (faithfulAlso && counts[faithfulAlso] > 0) {
      state.strictOnly('OPERATION_MISMATCH', 'O1', detail, { account: null, exposure: 0n });
    } else {
      throw new RelayError(anything ? 'OPERATION_MISMATCH' : 'NO_OPERATION', detail, { rule: anything ? 'O1' : 'O2' });
    }
  }
  return {
    created,
    transfers: state.transfers,
    solTransfers: state.solTransfers,
    closed: state.closed,
    memos: state.memos,
    calls: state.calls,
    feePayerCalls: state.feePayerCalls,
    strictBreaks: state.strictBreaks,
    sponsorExposure: totalExposure(state.strictBreaks),
  };
}

/** Each account's exposure once (a wrapped-SOL account without a hand-over breaks two rules for one rent). */
function totalExposure(breaks: readonly StrictBreak[]): bigint {
  const byAccount = new Map<string, bigint>();
  let unattached = 0n;
  for (const { account, exposure } of breaks) {
    if (account === null) unattached += exposure;
    else {
      const known = byAccount.get(account) ?? 0n;
      byAccount.set(account, exposure > known ? exposure : known);
    }
  }
  return [...byAccount.values()].reduce((sum, value) => sum + value, unattached);
}
