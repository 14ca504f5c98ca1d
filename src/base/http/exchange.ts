import type { StoredBody } from './exchange-bodies.ts';
import type { InterfaceName, InterfaceRefusal, ProblemRecord, RequestContext, RequestVars } from './request-context.ts';

/**
 * The core, and anything that answers as it does: a request in, a response out. The context is
 * what a server adapter knows beside the Request (src/base/http/request-context.ts); in process there
 * is none.
 */
export type FetchHandler = (request: Request, context?: RequestContext) => Promise<Response>;

/** What observers learn about each exchange (request logs, journals, the web UI's live feed): the `exchange` event. */
export interface Exchange {
  request: Request;
  response: Response;
  /** What the adapter knew of the request. */
  context: RequestContext;
  /** What the core and the middleware learned of it (its body's text among them). */
  vars: RequestVars;
  /** The interface that answered, or null when none matched. */
  api: InterfaceName | null;
  operationId: string | null;
  startedAt: Date;
  durationMs: number;
  /** The refusal: a RelayError's problem code and fee-payer rule, or an interface's own (Kora's); else null. */
  problem: ProblemRecord | InterfaceRefusal | null;
  /** The bodies as the journal keeps them, when they were asked for (see src/core/observe-exchanges.ts); else undefined. */
  requestBody?: StoredBody;
  responseBody?: StoredBody;
}

/** Told about every exchange, after its response is final and before it is returned; must not throw. */
export type ExchangeObserver = (exchange: Exchange) => void;
