import type { ProblemCode } from '../errors/problem-codes.ts';
import type { RuleId } from '../errors/rule-ids.ts';

// The words the relay, the stores and the views share, at the bottom so that each can import them.

/** A relay operation of the current interface. */
export type RelayOperation = 'create' | 'close' | 'send' | 'sendbatch';

/**
 * Where an accepted transaction came from: the relay operation that accepted it, or `rpc`
 * (sendTransaction, requestAirdrop), or `legacy` (the legacy interface's relays and server-built
 * transactions), or `kora` (Kora's signAndSendTransaction). The transaction journal shows it as `operation`.
 */
export const TRANSACTION_ORIGINS = ['create', 'close', 'send', 'sendbatch', 'rpc', 'legacy', 'kora'] as const;
export type TransactionOrigin = (typeof TRANSACTION_ORIGINS)[number];

/**
 * A rule of the strict profile that a transaction relayed under `faithful` breaks, and what it
 * exposes: the lamports of `account` the fee payer cannot get back (0 when it only pays the fee).
 */
export interface StrictBreak {
  /** The rule id of the table "Fee-payer policy" (A5, A6, T2, O1, K2, K3). */
  rule: RuleId;
  /** The code strict answers with. */
  code: ProblemCode;
  /** What strict would have said. */
  detail: string;
  /** The account at stake, when there is one. */
  account: string | null;
  exposure: bigint;
}
