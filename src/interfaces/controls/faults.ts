import type { ProblemCode } from '../../base/errors/problem-codes.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { RelayOperation } from '../../domain/relay/policy.ts';
import type { BeforeRelay } from '../../domain/relay/accept-pipeline.ts';
import type { BeforeSubmit } from '../../domain/relay/submission-worker.ts';

export type FaultOperation = RelayOperation | 'any';

/**
 * A fault for the next `count` relays of `operation`:
 * - `problem`: the relay request is refused with `code` (its problem+json, status and all);
 * - `ledger`: the request is accepted (receipt `Queued`), then the ledger submission fails with `ledgerError`;
 * - `delay`: the relay request answers `delayMs` later than it would have.
 */
export type Fault =
  | { operation: FaultOperation; count?: number; kind: 'problem'; code: ProblemCode }
  | { operation: FaultOperation; count?: number; kind: 'ledger'; ledgerError?: string }
  | { operation: FaultOperation; count?: number; kind: 'delay'; delayMs: number };

/** An armed fault: `count` as armed, `remaining` relays it will still hit. */
export type FaultRecord = Fault & { id: string; count: number; remaining: number };

export const DEFAULT_LEDGER_ERROR = 'Injected ledger failure';

/** Codes that tell clients when to come back; their injected problem carries Retry-After. */
const RETRY_AFTER_CODES: ReadonlySet<ProblemCode> = new Set(['RATE_LIMITED', 'QUEUE_FULL']);

/**
 * Armed faults and the relay hooks that fire them. Faults fire in the order they were armed.
 * `any` matches every relay operation, legacy relays included; it never matches transactions sent
 * straight through the RPC, which are not relays. A legacy relay's ledger submission is matched
 * by `any` only (its submission's origin is `legacy`).
 */
export class FaultBook {
  readonly #faults: FaultRecord[] = [];
  #next = 1;

  arm(fault: Fault): FaultRecord {
    const count = fault.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new RelayError('VALIDATION_FAILED', 'count must be an integer of at least 1.');
    const record = { ...fault, id: `fault-${this.#next++}`, count, remaining: count } as FaultRecord;
    if (record.kind === 'ledger') record.ledgerError ??= DEFAULT_LEDGER_ERROR;
    this.#faults.push(record);
    return { ...record };
  }

  list(): FaultRecord[] {
    return this.#faults.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.#faults.length = 0;
    this.#next = 1;
  }

  /** The hooks to hand to the accept pipeline (`beforeRelay`) and the submission worker (`beforeSubmit`). */
  readonly hooks: { beforeRelay: BeforeRelay; beforeSubmit: BeforeSubmit } = {
    beforeRelay: async (operation) => {
      for (const fault of this.#take(operation, (kind) => kind !== 'ledger')) {
        if (fault.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        if (fault.kind === 'problem') {
          throw new RelayError(fault.code, `Injected fault ${fault.id}: ${fault.code}.`, RETRY_AFTER_CODES.has(fault.code) ? { retryAfter: 1 } : {});
        }
      }
    },
    beforeSubmit: async (job) => {
      if (job.origin === 'rpc') return null;
      const [fault] = this.#take(job.origin === 'legacy' || job.origin === 'kora' ? null : job.origin, (kind) => kind === 'ledger', 1);
      return fault?.kind === 'ledger' ? (fault.ledgerError ?? DEFAULT_LEDGER_ERROR) : null;
    },
  };

  /**
   * Consumes one hit of each matching fault, in arming order: every matching delay, and at most
   * one fault that ends the call (problem or ledger). `operation` null matches `any` only.
   */
  #take(operation: RelayOperation | null, kinds: (kind: Fault['kind']) => boolean, limit = Infinity): FaultRecord[] {
    const taken: FaultRecord[] = [];
    for (const fault of [...this.#faults]) {
      if (taken.length >= limit) break;
      if (!kinds(fault.kind)) continue;
      if (fault.operation !== 'any' && fault.operation !== operation) continue;
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.#faults.splice(this.#faults.indexOf(fault), 1);
      taken.push(fault);
      if (fault.kind !== 'delay') break;
    }
    return taken;
  }
}
