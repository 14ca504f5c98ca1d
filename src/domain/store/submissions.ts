import type { z as Zod } from 'zod';
import { once, zod } from '../../base/lazy-zod.ts';
import type { LedgerTransaction } from '../ledger/ledger.ts';
import type { StrictBreak } from '../../base/words/words.ts';
import type { ChangeReporter } from '../state/change-feed.ts';

import { TRANSACTION_ORIGINS } from '../../base/words/words.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

export { TRANSACTION_ORIGINS, type TransactionOrigin } from '../../base/words/words.ts';

const SUBMISSION_STATUSES = ['queued', 'processed', 'failed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Commitment levels a transaction reaches on the ledger (and a caller can wait for), weakest first. */
export const COMMITMENTS = ['processed', 'confirmed', 'finalized'] as const;
export type Commitment = (typeof COMMITMENTS)[number];

/**
 * A submission's schema, over zod loaded when a state file is restored (base/lazy-zod.ts: zod is not
 * on the start path, issue 46). The type is the schema's.
 */
function submissionSchemaOf(z: typeof Zod) {
  return z.object({
    signature: z.string(),
    origin: z.enum(TRANSACTION_ORIGINS),
    status: z.enum(SUBMISSION_STATUSES),
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
    /** False for a transaction that did not go through the fee-payer policy (RPC sendTransaction, server-built legacy transactions). */
    policyChecked: z.boolean().default(true),
    /** Rules of the strict policy profile it breaks, relayed because the faithful profile sponsors it. */
    strictBreaks: z.custom<StrictBreak[]>().default([]),
    /** Lamports the fee payer cannot get back beyond the fee (each account at stake counted once). */
    sponsorExposure: z.bigint().default(0n),
    /** Who it is charged to in the sponsor-cost report: the test that sent it, or its app (domain/relay/cost-labels.ts); null for none. */
    label: z.string().nullable().default(null),
    /** Token payments a Kora relay took from its user (mint, amount, lamport value at Kora's price). */
    payments: z.custom<{ mint: string; amount: bigint; lamports: bigint }[]>().default([]),
  });
}

const submissionSchema = once(() => submissionSchemaOf(zod()));

/**
 * Every transaction the emulator accepted (relayed, or sent directly through the RPC) on its way
 * through the queue to the ledger: its status, commitment and what the ledger reported.
 */
export type Submission = Zod.infer<ReturnType<typeof submissionSchemaOf>>;

/**
 * A submission read back from a state file: checked field by field (throws naming the field).
 * Files written before the field was named `origin` call it `operation`.
 */
export function parseSubmission(data: unknown): Submission {
  if (typeof data === 'object' && data !== null && !('origin' in data) && 'operation' in data) {
    const { operation, ...rest } = data as { operation: unknown };
    return submissionSchema().parse({ ...rest, origin: operation });
  }
  return submissionSchema().parse(data);
}

/** A change to the submissions, as reported to the change feed (the state file's journal). */
export type SubmissionsChange = { op: 'insert'; submission: Submission } | { op: 'update'; signature: string; patch: Partial<Submission> } | { op: 'clear' };

/**
 * The submissions, by signature. Synchronous: a submission is stored in the same tick the pipeline
 * enqueues its job, so the worker always finds it. A submission is never changed in place: update
 * stores a new object, so one a caller holds keeps what it said when it was read. Signature
 * look-ups are on every relay (idempotency), every status poll and every journal read, hence a Map
 * (@msw/data scans its records on each find and update; see README, "Layout").
 */
export class Submissions {
  readonly #bySignature = new Map<string, Submission>();
  readonly #report: ChangeReporter;

  /** `report` hears every change (default: nobody). */
  constructor(report: ChangeReporter = () => undefined) {
    this.#report = report;
  }

  get(signature: string): Submission | undefined {
    return this.#bySignature.get(signature);
  }

  insert(submission: Submission): Submission {
    const stored = { ...submission };
    this.#bySignature.set(submission.signature, stored);
    this.#report({ op: 'insert', submission: stored } satisfies SubmissionsChange);
    return stored;
  }

  update(signature: string, patch: Partial<Submission>): Submission {
    const current = this.#bySignature.get(signature);
    if (!current) throw new InternalError('SUBMISSION_UNKNOWN', { signature });
    const updated = { ...current, ...patch };
    this.#bySignature.set(signature, updated);
    this.#report({ op: 'update', signature, patch } satisfies SubmissionsChange);
    return updated;
  }

  /** Submissions, oldest first. */
  all(): Submission[] {
    return [...this.#bySignature.values()];
  }

  clear(): void {
    this.#bySignature.clear();
    this.#report({ op: 'clear' } satisfies SubmissionsChange);
  }

  /** Redoes reported changes (journal replay), reporting nothing. An update of a submission that is not there is skipped. */
  replay(changes: readonly unknown[]): void {
    for (const change of changes as SubmissionsChange[]) {
      if (change.op === 'insert') this.#bySignature.set(change.submission.signature, { ...change.submission });
      else if (change.op === 'clear') this.#bySignature.clear();
      else {
        const current = this.#bySignature.get(change.signature);
        if (current) this.#bySignature.set(change.signature, { ...current, ...change.patch });
      }
    }
  }
}
