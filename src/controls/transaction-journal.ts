import type { TransactionErrorJson } from '../ledger/transaction-error.ts';
import type { Operation, RelayStatus, TransactionRecord, TransactionRecords } from '../store/transaction-records.ts';

/** A relayed (or RPC-sent) transaction as the transaction journal shows it. */
export interface TransactionJournalEntry {
  signature: string;
  operation: Operation;
  status: RelayStatus;
  commitment: TransactionRecord['commitment'];
  /** The ledger error; for an injected submission failure `{ InjectedError: text }`; null on success or while queued. */
  err: TransactionErrorJson | { InjectedError: string } | null;
  injectedError: string | null;
  logs: string[];
  computeUnitsConsumed: number | null;
  fee: number | null;
  slot: number | null;
  blockTime: number | null;
  receivedAt: string;
  /** Rules of the strict policy profile this transaction breaks, relayed under `faithful`; empty otherwise. */
  strictBreaks: { rule: string; code: string; detail: string; account: string | null; exposure: number }[];
  /** Lamports the fee payer cannot get back beyond the fee. */
  sponsorExposure: number;
}

export interface TransactionFilter {
  status?: RelayStatus;
  operation?: Operation;
  signature?: string;
}

/** The transaction journal is a view of the transaction records, oldest first. */
export function transactionJournal(records: TransactionRecords, filter: TransactionFilter = {}): TransactionJournalEntry[] {
  const source = filter.signature === undefined ? records.all() : [records.get(filter.signature)].filter((record) => record !== undefined);
  return source
    .filter((record) => (filter.status === undefined || record.status === filter.status) && (filter.operation === undefined || record.operation === filter.operation))
    .map(toEntry);
}

function toEntry(record: TransactionRecord): TransactionJournalEntry {
  const ledger = record.ledger;
  return {
    signature: record.signature,
    operation: record.operation,
    status: record.status,
    commitment: record.commitment,
    err: ledger?.err ?? (record.injectedError === null ? null : { InjectedError: record.injectedError }),
    injectedError: record.injectedError,
    logs: ledger?.logs ?? [],
    computeUnitsConsumed: ledger ? Number(ledger.computeUnitsConsumed) : null,
    fee: ledger ? Number(ledger.fee) : null,
    slot: ledger ? Number(ledger.slot) : null,
    blockTime: ledger?.blockTime ?? null,
    receivedAt: record.receivedAt,
    strictBreaks: record.strictBreaks.map((broken) => ({ ...broken, exposure: Number(broken.exposure) })),
    sponsorExposure: Number(record.sponsorExposure),
  };
}
