import type { Ledger } from '../ledger/ledger.ts';
import { transactionJson } from '../rpc/transaction-json.ts';
import type { Submission, Submissions } from '../store/submissions.ts';

/** A relayed transaction by signature, as the legacy `transaction/transaction` route answers it. */
export interface LegacySignatureLookup {
  signature: string;
  /** The RPC's signature status; null while the transaction has not reached the ledger, or when unknown. */
  status: { slot: number; confirmations: number | null; err: unknown; confirmationStatus: string } | null;
  /** The transaction as getTransaction (json) shows it; null when unknown. */
  transaction: Record<string, unknown> | null;
}

export function legacySignatureLookup(core: { submissions: Submissions; ledger: Ledger }, signature: string): LegacySignatureLookup {
  const record = core.submissions.get(signature);
  return {
    signature,
    status: record ? signatureStatus(core.ledger, record) : null,
    transaction: record ? transactionJson(record, { encoding: 'json', maxSupportedTransactionVersion: 0 }) : null,
  };
}

/** The RPC's signature status of a relayed transaction, null while it has not reached the ledger. */
function signatureStatus(ledger: Ledger, record: Submission): LegacySignatureLookup['status'] {
  if (!record.ledger || record.commitment === null) return null;
  const finalized = record.commitment === 'finalized';
  return {
    slot: Number(record.ledger.slot),
    confirmations: finalized ? null : Number(ledger.clock().slot - record.ledger.slot),
    err: record.ledger.err,
    confirmationStatus: record.commitment,
  };
}
