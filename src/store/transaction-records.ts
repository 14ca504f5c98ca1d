import { z } from 'zod';
import type { LedgerTransaction } from '../ledger/ledger.ts';
import { ChangeListeners } from './change-listeners.ts';

export const OPERATIONS = ['create', 'close', 'send', 'sendbatch', 'rpc', 'legacy'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const RELAY_STATUSES = ['queued', 'processed', 'failed'] as const;
export type RelayStatus = (typeof RELAY_STATUSES)[number];

/** Commitment levels a transaction reaches on the ledger (and a caller can wait for), weakest first. */
export const COMMITMENTS = ['processed', 'confirmed', 'finalized'] as const;
export type Commitment = (typeof COMMITMENTS)[number];

const recordSchema = z.object({
  signature: z.string(),
  operation: z.enum(OPERATIONS),
  status: z.enum(RELAY_STATUSES),
  /** Commitment reached on the ledger: null while queued. */
  commitment: z.enum(COMMITMENTS).nullable(),
  /** The receipt message answered to the client. */
  message: z.string(),
  /** The fully signed wire transaction, base64. */
  wire: z.string(),
  receivedAt: z.string(),
  /** Everything the ledger reported once the transaction was processed. */
  ledger: z.custom<LedgerTransaction>().nullable(),
  /** Set when the submission was failed by an injected fault instead of the ledger. */
  injectedError: z.string().nullable().default(null),
  /** False for a transaction that did not go through the fee-payer policy (RPC sendTransaction, server-built legacy closes). */
  policyChecked: z.boolean().default(true),
});

/** Every transaction the emulator accepted: relayed, or sent directly through the RPC. */
export type TransactionRecord = z.infer<typeof recordSchema>;

/** A record read back from a state file: checked field by field (throws naming the field). */
export function parseTransactionRecord(data: unknown): TransactionRecord {
  return recordSchema.parse(data);
}

/**
 * The transaction records, by signature. Synchronous: a record is stored in the same tick the
 * pipeline enqueues its job, so the worker always finds it. A record is never changed in place:
 * update stores a new object, so a record a caller holds keeps what it said when it was read.
 * Signature look-ups are on every relay (idempotency), every status poll and every journal read,
 * hence a Map (@msw/data scans its records on each find and update; see README, "Layout").
 */
export class TransactionRecords {
  readonly #bySignature = new Map<string, TransactionRecord>();
  /** Told after every insert, update and clear (the web UI's live feed). */
  readonly changes = new ChangeListeners();

  get(signature: string): TransactionRecord | undefined {
    return this.#bySignature.get(signature);
  }

  insert(record: TransactionRecord): TransactionRecord {
    const stored = { ...record };
    this.#bySignature.set(record.signature, stored);
    this.changes.emit();
    return stored;
  }

  update(signature: string, patch: Partial<TransactionRecord>): TransactionRecord {
    const current = this.#bySignature.get(signature);
    if (!current) throw new Error(`no transaction record for ${signature}`);
    const updated = { ...current, ...patch };
    this.#bySignature.set(signature, updated);
    this.changes.emit();
    return updated;
  }

  /** Records, oldest first. */
  all(): TransactionRecord[] {
    return [...this.#bySignature.values()];
  }

  clear(): void {
    this.#bySignature.clear();
    this.changes.emit();
  }
}
