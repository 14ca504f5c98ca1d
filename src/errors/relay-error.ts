import { PROBLEMS, type ProblemCode } from './problem-codes.ts';

/** Extra members a problem body may carry. */
export interface ProblemContext {
  /** Per-field validation failures. */
  errors?: { path: string; message: string }[];
  /** Ledger logs, when a transaction failed. */
  logs?: string[];
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  /** Headers the response must carry (e.g. `Allow` on a 405). */
  headers?: Record<string, string>;
  /** The id of the fee-payer policy rule that refused a relay (table "Fee-payer policy" of the contract). */
  rule?: string;
}

/** The one error type the emulator throws on purpose. Anything else becomes INTERNAL_ERROR. */
export class RelayError extends Error {
  readonly code: ProblemCode;
  readonly detail: string | undefined;
  readonly context: ProblemContext;

  constructor(code: ProblemCode, detail?: string, context: ProblemContext = {}) {
    super(detail ?? PROBLEMS[code].title);
    this.name = 'RelayError';
    this.code = code;
    this.detail = detail;
    this.context = context;
  }

  get status(): number {
    return PROBLEMS[this.code].status;
  }
}

export function isRelayError(error: unknown): error is RelayError {
  return error instanceof RelayError;
}
