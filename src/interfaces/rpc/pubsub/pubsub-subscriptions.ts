import { PublicKey } from '@solana/web3.js';
import type { LedgerEvents } from '../../../domain/ledger/ledger-types.ts';
import type { RpcDeps } from '../rpc-deps.ts';
import { COMMITMENTS as SUBMISSION_COMMITMENTS, type Commitment } from '../../../domain/store/submissions.ts';
import { accountJson, type AccountEncodingOptions } from '../account-json.ts';
import { matchesFilters, type AccountFilter } from '../account-filters.ts';
import type { RpcCommitment } from '../context.ts';

/** A ledger event, as the emitter tells it (`transaction` or `accounts`), with its name. */
export type LedgerEvent = ({ kind: 'transaction' } & LedgerEvents['transaction']) | ({ kind: 'accounts' } & LedgerEvents['accounts']);

/** What a logs subscription listens for: every transaction, or those that mention one of some addresses. */
export type LogsFilter = { all: true } | { mentions: string[] };

/** Something waiting to be told: the ledger event's signature (null for a direct write) and what it is about. */
interface Pending<T> {
  signature: string | null;
  item: T;
}

export type Subscription =
  | { kind: 'signature'; signature: string; commitment: RpcCommitment; received: boolean; receivedSent: boolean }
  | { kind: 'account'; address: PublicKey; key: string; encoding: AccountEncodingOptions; commitment: RpcCommitment; pending: Pending<string>[] }
  | { kind: 'slot'; last: bigint }
  | { kind: 'root'; last: bigint }
  | { kind: 'slotsUpdates'; last: bigint; confirmed: bigint; root: bigint }
  | { kind: 'logs'; filter: LogsFilter; commitment: RpcCommitment; pending: Pending<{ slot: bigint; err: unknown; logs: string[] }>[] }
  | { kind: 'program'; program: PublicKey; encoding: AccountEncodingOptions; filters: AccountFilter[]; commitment: RpcCommitment; pending: Pending<string>[] };

export const NOTIFICATION: Record<Subscription['kind'], string> = {
  signature: 'signatureNotification',
  account: 'accountNotification',
  slot: 'slotNotification',
  root: 'rootNotification',
  slotsUpdates: 'slotsUpdatesNotification',
  logs: 'logsNotification',
  program: 'programNotification',
};

/** Hands a ledger event to the subscriptions it concerns (logs, program and account ones): they tell their clients at their next check. */
export function collect(subscription: Subscription, event: LedgerEvent): void {
  if (subscription.kind === 'account') {
    if (event.written.includes(subscription.key))
      subscription.pending.push({ signature: event.kind === 'transaction' ? event.transaction.signature : null, item: subscription.key });
    return;
  }
  if (subscription.kind === 'logs' && event.kind === 'transaction') {
    const { transaction } = event;
    const { filter } = subscription;
    if ('mentions' in filter && !filter.mentions.some((address) => transaction.accountKeys.includes(address))) return;
    subscription.pending.push({ signature: transaction.signature, item: { slot: transaction.slot, err: transaction.err, logs: transaction.logs } });
  } else if (subscription.kind === 'program') {
    const signature = event.kind === 'transaction' ? event.transaction.signature : null;
    for (const address of event.written) subscription.pending.push({ signature, item: address });
  }
}

/** Checks one subscription against the ledger and the submissions; `notify` tells the client. Returns false once the subscription is over. */
export async function check(deps: RpcDeps, subscription: Subscription, notify: (result: unknown) => void): Promise<boolean> {
  const slot = deps.ledger.clock().slot;
  const context = { slot: Number(slot) };
  switch (subscription.kind) {
    case 'signature': {
      const submission = deps.submissions.get(subscription.signature);
      if (submission && subscription.received && !subscription.receivedSent) {
        subscription.receivedSent = true;
        notify({ context, value: 'receivedSignature' });
      }
      if (submission?.ledger && reached(submission.commitment, subscription.commitment)) {
        notify({ context: { slot: Number(submission.ledger.slot) }, value: { err: submission.ledger.err } });
        return false;
      }
      return true;
    }
    case 'slot':
      if (slot !== subscription.last) {
        subscription.last = slot;
        notify({ parent: Number(slot) - 1, root: Number(deps.ledger.slotAt('finalized')), slot: Number(slot) });
      }
      return true;
    case 'root': {
      // The newest rooted slot: the current one where every slot is final at once, 32 behind under validator timing.
      const root = deps.ledger.slotAt('finalized');
      if (root !== subscription.last) {
        subscription.last = root;
        notify(Number(root));
      }
      return true;
    }
    case 'slotsUpdates':
      slotUpdates(deps, subscription, notify);
      return true;
    case 'account': {
      // Once per check however many writes came due (a validator notifies once a slot), each write
      // when it reached the subscription's commitment; the account as it is then.
      if (due(deps, subscription.pending, subscription.commitment).length === 0) return true;
      const account = await deps.ledger.getAccount(subscription.address);
      notify({ context, value: account ? await accountJson(subscription.key, account, subscription.encoding, deps.ledger) : null });
      return true;
    }
    case 'logs':
      for (const { signature, item } of due(deps, subscription.pending, subscription.commitment)) {
        notify({ context: { slot: Number(item.slot) }, value: { signature, err: item.err, logs: item.logs } });
      }
      return true;
    case 'program': {
      const addresses = new Set(due(deps, subscription.pending, subscription.commitment).map(({ item }) => item));
      for (const address of addresses) {
        const account = await deps.ledger.getAccount(new PublicKey(address));
        if (!account?.owner.equals(subscription.program) || !matchesFilters(account, subscription.filters)) continue;
        notify({ context, value: { pubkey: address, account: await accountJson(address, account, subscription.encoding, deps.ledger) } });
      }
      return true;
    }
  }
}

/**
 * Takes out of `pending`, in order, what reached `commitment`: a transaction once its submission
 * did (one with none, like the controls' own, at once), a direct write at once. It stops at the
 * first one still short of it, so that notifications keep the ledger's order.
 */
function due<T>(deps: RpcDeps, pending: Pending<T>[], commitment: RpcCommitment): Pending<T>[] {
  let count = 0;
  for (const { signature } of pending) {
    const submission = signature === null ? undefined : deps.submissions.get(signature);
    if (submission && !reached(submission.commitment, commitment)) break;
    count += 1;
  }
  return pending.splice(0, count);
}

function reached(have: Commitment | null, want: RpcCommitment): boolean {
  return have !== null && SUBMISSION_COMMITMENTS.indexOf(have) >= SUBMISSION_COMMITMENTS.indexOf(want);
}

/** The most slots one check reports on (a warp of thousands is told by its last slots). */
const MAX_SLOT_UPDATES = 32;

/**
 * slotsUpdatesSubscribe, as a lone leader's validator tells it (Agave's SlotUpdate, `type` first):
 * for each slot opened, `createdBank` and `firstShredReceived`; for the slot it closed,
 * `completed` and `frozen` with its transactions' counts; `optimisticConfirmation` as the
 * confirmed slot moves, and `root` as the finalized one does. Timestamps are wall milliseconds.
 */
function slotUpdates(deps: RpcDeps, subscription: Extract<Subscription, { kind: 'slotsUpdates' }>, notify: (result: unknown) => void): void {
  const { ledger } = deps;
  const slot = ledger.clock().slot;
  const timestamp = Date.now();
  const from = slot - subscription.last > MAX_SLOT_UPDATES ? slot - BigInt(MAX_SLOT_UPDATES) : subscription.last;
  for (let next = from + 1n; next <= slot; next += 1n) {
    const closed = next - 1n;
    notify({ type: 'completed', slot: Number(closed), timestamp });
    notify({ type: 'frozen', slot: Number(closed), timestamp, stats: frozenStats(deps, closed) });
    notify({ type: 'createdBank', slot: Number(next), parent: Number(closed), timestamp });
    notify({ type: 'firstShredReceived', slot: Number(next), timestamp });
  }
  subscription.last = slot;
  const confirmed = ledger.slotAt('confirmed');
  if (confirmed > subscription.confirmed) notify({ type: 'optimisticConfirmation', slot: Number(confirmed), timestamp });
  subscription.confirmed = confirmed;
  const root = ledger.slotAt('finalized');
  if (root > subscription.root) notify({ type: 'root', slot: Number(root), timestamp });
  subscription.root = root;
}

/** A closed slot's transactions: those that landed in it, succeeded or failed; an entry per transaction. */
function frozenStats(deps: RpcDeps, slot: bigint) {
  let succeeded = 0;
  let failed = 0;
  for (const entry of deps.history.inSlot(Number(slot))) {
    if (entry.err === null) succeeded += 1;
    else failed += 1;
  }
  return {
    numTransactionEntries: succeeded + failed,
    numSuccessfulTransactions: succeeded,
    numFailedTransactions: failed,
    maxTransactionsPerEntry: succeeded + failed > 0 ? 1 : 0,
  };
}
