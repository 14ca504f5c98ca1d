import type { StoredBody } from './exchange-bodies.ts';
import type { Api, RequestContext } from './request-context.ts';

/**
 * The core, and anything that answers as it does: a request in, a response out. The context is
 * what a server adapter knows beside the Request (src/base/http/request-context.ts); in process there is
 * none, and the core starts an empty one.
 */
export type FetchHandler = (request: Request, context?: RequestContext) => Promise<Response>;

/** What observers learn about each exchange (request logs, journals, the web UI's live feed). */
export interface Exchange {
  request: Request;
  response: Response;
  /** What the adapter and the core recorded about the request on its way through. */
  context: RequestContext;
  /** The route's interface, or null when no route matched. */
  api: Api | 'rpc' | 'kora' | null;
  operationId: string | null;
  startedAt: Date;
  durationMs: number;
  /** The refusal's problem code and fee-payer rule when the request was refused (a thrown error), else null. */
  problem: { code: string; rule: string | null } | null;
  /** The bodies as the journal keeps them, when they were asked for (see observeExchanges); else undefined. */
  requestBody?: StoredBody;
  responseBody?: StoredBody;
}

/** Told about every exchange, after its response is final and before it is returned; must not throw. */
export type ExchangeObserver = (exchange: Exchange) => void;
