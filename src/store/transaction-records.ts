import { Collection } from '@msw/data';
import { z } from 'zod';
import type { LedgerTransaction } from '../ledger/ledger.ts';
import type { StrictBreak } from '../relay/policy/types.ts';

export const OPERATIONS = ['create', 'close', 'send', 'sendbatch', 'rpc', 'legacy'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const RELAY_STATUSES = ['queued', 'processed', 'failed'] as const;
export type RelayStatus = (typeof RELAY_STATUSES)[number];

const recordSchema = z.object({
  signature: z.string(),
  operation: z.enum(OPERATIONS),
  status: z.enum(RELAY_STATUSES),
  /** Commitment reached on the ledger: null while queued. */
  commitment: z.enum(['processed', 'confirmed', 'finalized']).nullable(),
  /** The receipt message answered to the client. */
  message: z.string(),
  /** The fully signed wire transaction, base64. */
  wire: z.string(),
  receivedAt: z.string(),
  /** Everything the ledger reported once the transaction was processed. */
  ledger: z.custom<LedgerTransaction>().nullable(),
  /** Set when the submission was failed by an injected fault instead of the ledger. */
  injectedError: z.string().nullable().default(null),
  /** Rules of the strict policy profile it breaks, relayed because the faithful profile sponsors it. */
  strictBreaks: z.custom<StrictBreak[]>().default([]),
  /** Lamports the fee payer cannot get back beyond the fee (each account at stake counted once). */
  sponsorExposure: z.bigint().default(0n),
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

  get(signature: string): TransactionRecord | undefined {
    return this.#bySignature.get(signature);
  }

  async insert(record: TransactionRecord): Promise<TransactionRecord> {
    const created = await this.collection.create(record);
    this.#bySignature.set(record.signature, created);
    return created;
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
