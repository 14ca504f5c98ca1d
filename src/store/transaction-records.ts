import { Collection } from '@msw/data';
import { z } from 'zod';
import type { LedgerTransaction } from '../ledger/ledger.ts';

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
});

/** Every transaction the emulator accepted: relayed, or sent directly through the RPC. */
export type TransactionRecord = z.infer<typeof recordSchema>;

/**
 * The transaction records, as an @msw/data collection, with a signature index on top so that
 * receipts, statuses and journal look-ups never scan.
 */
type StoredRecord = Awaited<ReturnType<Collection<typeof recordSchema>['create']>>;

export class TransactionRecords {
  readonly collection = new Collection({ schema: recordSchema });
  readonly #bySignature = new Map<string, StoredRecord>();
  /** Inserts still under way, by signature (the collection's create is async). */
  readonly #inserting = new Map<string, Promise<unknown>>();

  get(signature: string): TransactionRecord | undefined {
    return this.#bySignature.get(signature);
  }

  async insert(record: TransactionRecord): Promise<TransactionRecord> {
    const inserting = this.collection.create(record);
    this.#inserting.set(record.signature, inserting);
    try {
      const created = await inserting;
      this.#bySignature.set(record.signature, created);
      return created;
    } finally {
      this.#inserting.delete(record.signature);
    }
  }

  /** Resolves once an insert under way for `signature`, if any, is done. */
  async inserted(signature: string): Promise<void> {
    await this.#inserting.get(signature);
  }

  async update(signature: string, patch: Partial<TransactionRecord>): Promise<TransactionRecord> {
    const current = this.#bySignature.get(signature);
    if (!current) throw new Error(`no transaction record for ${signature}`);
    const updated = await this.collection.update(current, {
      data(draft) {
        Object.assign(draft, patch);
      },
    });
    if (!updated) throw new Error(`transaction record ${signature} vanished during update`);
    this.#bySignature.set(signature, updated);
    return updated;
  }

  /** Records, oldest first. */
  all(): TransactionRecord[] {
    return [...this.#bySignature.values()];
  }

  clear(): void {
    this.collection.clear();
    this.#bySignature.clear();
  }
}
