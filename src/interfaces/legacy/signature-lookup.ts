import type { Ledger } from '../../domain/ledger/ledger.ts';
import { transactionJson } from '../rpc/transaction-json.ts';
import type { Submission, Submissions } from '../../domain/store/submissions.ts';

/** A relayed transaction by signature, as the legacy `transaction/transaction` route answers it. */
export interface LegacySignatureLookup {
  signature: string;
  /** The RPC's signature status; null while the transaction has not reached the ledger, or when unknown. */
  status: { slot: number; confirmations: number | null; err: unknown; confirmationStatus: string } | null;
  /** The transaction as getTransaction (json) shows it; null when unknown. */
  transaction: Record<string, unknown> | null;
}

export function legacySignatureLookup(core: { submissions: Submissions; ledger: Ledger }, signature: string): LegacySignatureLookup {
  const submission = core.submissions.get(signature);
  return {
    signature,
    status: submission ? signatureStatus(core.ledger, submission) : null,
    transaction: submission ? transactionJson(submission, { encoding: 'json', maxSupportedTransactionVersion: 0 }) : null,
  };
}

/** The RPC's signature status of a relayed transaction, null while it has not reached the ledger. */
function signatureStatus(ledger: Ledger, submission: Submission): LegacySignatureLookup['status'] {
  if (!submission.ledger || submission.commitment === null) return null;
  const finalized = submission.commitment === 'finalized';
  return {
    slot: Number(submission.ledger.slot),
    confirmations: finalized ? null : Number(ledger.clock().slot - submission.ledger.slot),
    err: submission.ledger.err,
    confirmationStatus: submission.commitment,
  };
}
