// Over 250 lines: the record's schema, its store and the store's journal changes belong together.
import type { z as Zod } from 'zod';
import { once, zod } from '../../base/lazy-zod.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { ChangeReporter } from '../../domain/state/change-feed.ts';

const LEGACY_STATUSES = ['Processing', 'Committed', 'Confirmed', 'Finalized', 'Failed'] as const;
export type LegacyStatus = (typeof LEGACY_STATUSES)[number];

const LEGACY_ERROR_TYPES = ['BadNonce', 'InvalidAccount', 'SomeError', 'Timeout', 'Unknown', 'WebhookFailed'] as const;
export type LegacyErrorType = (typeof LEGACY_ERROR_TYPES)[number];

const LEGACY_COMMITMENTS = ['Processed', 'Confirmed', 'Finalized'] as const;
export type LegacyCommitment = (typeof LEGACY_COMMITMENTS)[number];

/**
 * The record's schema, over zod loaded when a state file is restored (base/lazy-zod.ts: zod is not
 * on the start path, issue 46). The types are the schema's.
 */
function recordSchemasOf(z: typeof Zod) {
  const errorSchema = z.object({
    id: z.string(),
    logs: z.array(z.string()),
    message: z.string(),
    type: z.enum(LEGACY_ERROR_TYPES),
    instruction: z.number().int().nullable(),
  });
  const timestamp = z.string().nullable();
  const duration = z.number().int().nullable();

  /** The public fields: the legacy transaction record of spec 2.5, as answered and sent to webhooks. */
  const publicShape = {
    id: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    amount: z.string().nullable(),
    decimals: z.number().int().nullable(),
    destination: z.string().nullable(),
    errors: z.array(errorSchema),
    explorerUrl: z.string().nullable(),
    feePayer: z.string(),
    ip: z.string().nullable(),
    mint: z.string(),
    processingDuration: duration,
    reference: z.string().nullable(),
    signature: z.string().nullable(),
    ledgerCommitted: timestamp,
    ledgerCommittedDuration: duration,
    ledgerFinalized: timestamp,
    ledgerFinalizedDuration: duration,
    ledgerStart: timestamp,
    ledgerTransaction: z.record(z.string(), z.unknown()).nullable(),
    source: z.string().nullable(),
    status: z.enum(LEGACY_STATUSES),
    totalDuration: duration,
    tx: z.string(),
    ua: z.string().nullable(),
    webhookEventStart: timestamp,
    webhookEventEnd: timestamp,
    webhookEventDuration: duration,
    webhookVerifyStart: timestamp,
    webhookVerifyEnd: timestamp,
    webhookVerifyDuration: duration,
  };

  const recordSchema = z.object({
    ...publicShape,
    /** `app-<index>-<environment>`; records are listed per app. */
    appKey: z.string(),
    commitment: z.enum(LEGACY_COMMITMENTS),
    /** Request headers starting with `legacy-`, passed on to the app's webhooks. */
    forwardHeaders: z.record(z.string(), z.string()),
  });
  const snapshotSchema = z.object({ nextId: z.number().int().positive(), nextErrorId: z.number().int().positive(), records: z.array(recordSchema) });
  return { errorSchema, publicSchema: z.object(publicShape), recordSchema, snapshotSchema };
}

type RecordSchemas = ReturnType<typeof recordSchemasOf>;
const recordSchemas = once(() => recordSchemasOf(zod()));

export type LegacyTransactionError = Zod.infer<RecordSchemas['errorSchema']>;
/** A stored legacy transaction record: the public record plus what the emulator keeps for itself. */
export type LegacyRecord = Zod.infer<RecordSchemas['recordSchema']>;
/** The legacy transaction record as answered (spec 2.5). */
export type LegacyTransaction = Zod.infer<RecordSchemas['publicSchema']>;

/** The public record's fields, in the contract's order (the schema's keys: legacy-records.test.ts holds them to it). */
export const PUBLIC_FIELDS = [
  'id',
  'createdAt',
  'updatedAt',
  'amount',
  'decimals',
  'destination',
  'errors',
  'explorerUrl',
  'feePayer',
  'ip',
  'mint',
  'processingDuration',
  'reference',
  'signature',
  'ledgerCommitted',
  'ledgerCommittedDuration',
  'ledgerFinalized',
  'ledgerFinalizedDuration',
  'ledgerStart',
  'ledgerTransaction',
  'source',
  'status',
  'totalDuration',
  'tx',
  'ua',
  'webhookEventStart',
  'webhookEventEnd',
  'webhookEventDuration',
  'webhookVerifyStart',
  'webhookVerifyEnd',
  'webhookVerifyDuration',
] as const satisfies readonly (keyof LegacyTransaction)[];

/** The public schema's keys, for the test that holds PUBLIC_FIELDS to them. */
export function publicSchemaKeys(): string[] {
  return Object.keys(recordSchemas().publicSchema.shape);
}

export function publicRecord(record: LegacyRecord): LegacyTransaction {
  const result: Record<string, unknown> = {};
  for (const field of PUBLIC_FIELDS) result[field] = record[field];
  return result as LegacyTransaction;
}

/** The fields a record starts with; every lifecycle field starts null. */
export type ProcessingFields = Pick<
  LegacyRecord,
  | 'id'
  | 'appKey'
  | 'commitment'
  | 'forwardHeaders'
  | 'createdAt'
  | 'tx'
  | 'feePayer'
  | 'source'
  | 'amount'
  | 'destination'
  | 'decimals'
  | 'ip'
  | 'mint'
  | 'processingDuration'
  | 'reference'
  | 'ua'
>;

/** A new record in `Processing`, created (and last updated) at `createdAt`. */
export function processingRecord(fields: ProcessingFields): LegacyRecord {
  return {
    ...fields,
    updatedAt: fields.createdAt,
    errors: [],
    explorerUrl: null,
    signature: null,
    ledgerCommitted: null,
    ledgerCommittedDuration: null,
    ledgerFinalized: null,
    ledgerFinalizedDuration: null,
    ledgerStart: null,
    ledgerTransaction: null,
    status: 'Processing',
    totalDuration: null,
    webhookEventStart: null,
    webhookEventEnd: null,
    webhookEventDuration: null,
    webhookVerifyStart: null,
    webhookVerifyEnd: null,
    webhookVerifyDuration: null,
  };
}

/** A change to the legacy records, as reported to the change feed (the state file's journal); `next` is [next id, next error id] after it. */
export type LegacyRecordsChange =
  | { op: 'insert'; record: LegacyRecord; next: [number, number] }
  | { op: 'update'; id: string; patch: Partial<LegacyRecord>; next: [number, number] }
  | { op: 'counters'; next: [number, number] }
  | { op: 'remove'; id: string }
  | { op: 'clear' };

/**
 * Legacy transaction records, with indexes by id, by signature and by reference (per app), so that
 * look-ups never scan. Synchronous, and never changed in place (update stores a new object). Ids
 * are sequential, so runs are reproducible. Maps rather than @msw/data: its find and update scan
 * every record, and a legacy relay updates its record about six times (see README, "Layout").
 */
export class LegacyRecords {
  readonly #byId = new Map<string, LegacyRecord>();
  readonly #bySignature = new Map<string, string>();
  readonly #byReference = new Map<string, string[]>();
  #nextId = 1;
  #nextErrorId = 1;
  readonly #report: ChangeReporter;

  /** `report` hears every change (default: nobody). */
  constructor(report: ChangeReporter = () => undefined) {
    this.#report = report;
  }

  /** A fresh record id. */
  newId(): string {
    return `ltx${String(this.#nextId++).padStart(8, '0')}`;
  }

  /** A fresh error-entry id. */
  newErrorId(): string {
    return `lerr${String(this.#nextErrorId++).padStart(8, '0')}`;
  }

  get(id: string): LegacyRecord | undefined {
    return this.#byId.get(id);
  }

  bySignature(signature: string): LegacyRecord | undefined {
    const id = this.#bySignature.get(signature);
    return id === undefined ? undefined : this.#byId.get(id);
  }

  /** Records of an app matching a reference and/or a signature, oldest first. */
  find(app: string, filter: { reference?: string; signature?: string }): LegacyRecord[] {
    let ids: string[];
    if (filter.signature !== undefined) {
      const id = this.#bySignature.get(filter.signature);
      ids = id === undefined ? [] : [id];
    } else {
      ids = this.#byReference.get(referenceKey(app, filter.reference ?? '')) ?? [];
    }
    return ids
      .map((id) => this.#byId.get(id)!)
      .filter((record) => record.appKey === app && (filter.reference === undefined || record.reference === filter.reference));
  }

  insert(record: LegacyRecord): LegacyRecord {
    const stored = this.#insert(record);
    this.#report({ op: 'insert', record: stored, next: this.#next() } satisfies LegacyRecordsChange);
    return stored;
  }

  /** Throws EMULATOR_RESET when the record is gone: a reset removed it while its request waited. */
  update(id: string, patch: Partial<LegacyRecord>): LegacyRecord {
    const updated = this.#update(id, patch);
    if (!updated) throw new RelayError('EMULATOR_RESET', `The legacy record ${id} was removed by a reset while its request waited.`);
    this.#report({ op: 'update', id, patch, next: this.#next() } satisfies LegacyRecordsChange);
    return updated;
  }

  /** Forgets a record a request made and then answered with an error (503 QUEUE_FULL): such an answer records nothing. */
  remove(id: string): void {
    if (!this.#remove(id)) return;
    this.#report({ op: 'remove', id } satisfies LegacyRecordsChange);
  }

  /** Every record, oldest first. */
  all(): LegacyRecord[] {
    return [...this.#byId.values()];
  }

  snapshot(): { nextId: number; nextErrorId: number; records: LegacyRecord[] } {
    return { nextId: this.#nextId, nextErrorId: this.#nextErrorId, records: structuredClone(this.all()) };
  }

  /** Loads a snapshot (state file), checked field by field; throws, changing nothing, when it does not parse. */
  restore(data: unknown): void {
    const parsed = recordSchemas().snapshotSchema.parse(data);
    this.clear();
    for (const record of parsed.records) this.insert(record);
    this.#nextId = parsed.nextId;
    this.#nextErrorId = parsed.nextErrorId;
    this.#report({ op: 'counters', next: this.#next() } satisfies LegacyRecordsChange);
  }

  clear(): void {
    this.#clear();
    this.#report({ op: 'clear' } satisfies LegacyRecordsChange);
  }

  /** Redoes reported changes (journal replay), reporting nothing. An update of a record that is not there is skipped. */
  replay(changes: readonly unknown[]): void {
    for (const change of changes as LegacyRecordsChange[]) {
      if (change.op === 'clear') {
        this.#clear();
        continue;
      }
      if (change.op === 'remove') {
        this.#remove(change.id);
        continue;
      }
      if (change.op === 'insert') this.#insert(change.record);
      else if (change.op === 'update') this.#update(change.id, change.patch);
      [this.#nextId, this.#nextErrorId] = change.next;
    }
  }

  #insert(record: LegacyRecord): LegacyRecord {
    const stored = { ...record };
    const known = this.#byId.has(record.id);
    this.#byId.set(record.id, stored);
    if (!known) this.#index(stored);
    return stored;
  }

  #update(id: string, patch: Partial<LegacyRecord>): LegacyRecord | null {
    const current = this.#byId.get(id);
    if (!current) return null;
    const updated = { ...current, ...patch };
    this.#byId.set(id, updated);
    if (patch.signature && patch.signature !== current.signature) this.#bySignature.set(patch.signature, id);
    return updated;
  }

  #remove(id: string): boolean {
    const record = this.#byId.get(id);
    if (!record) return false;
    this.#byId.delete(id);
    if (record.signature && this.#bySignature.get(record.signature) === id) this.#bySignature.delete(record.signature);
    if (record.reference !== null) {
      const key = referenceKey(record.appKey, record.reference);
      const ids = (this.#byReference.get(key) ?? []).filter((each) => each !== id);
      if (ids.length > 0) this.#byReference.set(key, ids);
      else this.#byReference.delete(key);
    }
    return true;
  }

  #next(): [number, number] {
    return [this.#nextId, this.#nextErrorId];
  }

  #clear(): void {
    this.#byId.clear();
    this.#bySignature.clear();
    this.#byReference.clear();
    this.#nextId = 1;
    this.#nextErrorId = 1;
  }

  #index(record: LegacyRecord): void {
    if (record.signature) this.#bySignature.set(record.signature, record.id);
    if (record.reference !== null) {
      const key = referenceKey(record.appKey, record.reference);
      const ids = this.#byReference.get(key);
      if (ids) ids.push(record.id);
      else this.#byReference.set(key, [record.id]);
    }
  }
}

function referenceKey(app: string, reference: string): string {
  return `${app}|${reference}`;
}
