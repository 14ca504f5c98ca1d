import { PROBLEMS, type ProblemCode } from './problem-codes.ts';
import type { ContextArgument, ProblemContext, ProblemContexts } from './problem-contexts.ts';
import { problemMessage } from './problem-messages.ts';

export type { FieldError, ProblemContext, ProblemContexts } from './problem-contexts.ts';

/**
 * The one error type the emulator throws on purpose. Anything else becomes INTERNAL_ERROR. Typed
 * by its code, as kit's SolanaError is: `new RelayError('RATE_LIMITED', detail, { retryAfter })`
 * does not compile without `retryAfter`, nor a policy refusal without its `rule`; `isRelayError(e,
 * code)` narrows to that code's context. Nothing reads the message to tell errors apart: the code
 * says what happened.
 */
export class RelayError<C extends ProblemCode = ProblemCode> extends Error {
  readonly code: C;
  readonly detail: string | undefined;
  readonly context: ProblemContexts[C] & ProblemContext;

  /** `detail` undefined: the message table's (problem-messages.ts), made from the context, else the code's title. */
  constructor(code: C, detail?: string, ...[context]: ContextArgument<C>) {
    const described = detail ?? problemMessage(code, context);
    super(described ?? PROBLEMS[code].title);
    this.name = 'RelayError';
    this.code = code;
    this.detail = described;
    this.context = (context ?? {}) as ProblemContexts[C] & ProblemContext;
  }

  /** A refusal whose detail the message table makes from `context`, as kit's `new SolanaError(code, context)`. */
  static of<C extends ProblemCode>(code: C, ...[context]: ContextArgument<C>): RelayError<C> {
    return new RelayError(code, undefined, ...([context] as ContextArgument<C>));
  }

  get status(): number {
    return PROBLEMS[this.code].status;
  }
}

/** A RelayError, or one with this code (its context typed as that code's). */
export function isRelayError<C extends ProblemCode>(error: unknown, code?: C): error is RelayError<C> {
  return error instanceof RelayError && (code === undefined || error.code === code);
}
