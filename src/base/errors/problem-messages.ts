import type { ProblemCode } from './problem-codes.ts';
import type { ProblemContexts } from './problem-contexts.ts';

/**
 * The detail of a refusal, made from its context where one sentence says it for every call site
 * (as kit's `packages/errors/src/messages.ts`): the same refusal reads the same wherever it is
 * thrown. A code not in the table, or a context without the members its message needs, keeps
 * the detail its call site wrote (most refusals say something only their call site knows), else
 * the code's title.
 */
export const PROBLEM_MESSAGES: { [C in ProblemCode]?: (context: ProblemContexts[C]) => string | undefined } = {
  METHOD_NOT_ALLOWED: ({ method, headers }) => (method === undefined ? undefined : `${method} is not allowed here; use ${headers.Allow}.`),
  ROUTE_NOT_FOUND: ({ method, path }) => (method === undefined || path === undefined ? undefined : `No route matches ${method} ${path}.`),
  PAYLOAD_TOO_LARGE: ({ maxBytes }) => (maxBytes === undefined ? undefined : `The request body is larger than ${maxBytes} bytes.`),
  UNSUPPORTED_MEDIA_TYPE: ({ contentType, expected }) =>
    contentType === undefined || expected === undefined ? undefined : `Content-Type "${contentType || '(none)'}" is not ${expected}.`,
  QUEUE_FULL: ({ queued }) => (queued === undefined ? undefined : `The relay queue holds ${queued} transactions, its limit.`),
};

/** The table's detail for a code and its context, or undefined. */
export function problemMessage<C extends ProblemCode>(code: C, context: ProblemContexts[C] | undefined): string | undefined {
  const message = PROBLEM_MESSAGES[code] as ((context: ProblemContexts[C]) => string | undefined) | undefined;
  return message && context ? message(context) : undefined;
}
