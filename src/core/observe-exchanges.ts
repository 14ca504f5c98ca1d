import { isJournaledMedia, knownRequestBody, MAX_JOURNALED_BYTES, readRequestBody, UTF8 } from '../base/http/exchange-bodies.ts';
import type { Exchange, ExchangeObserver, FetchHandler } from '../base/http/exchange.ts';
import type { RequestContext } from '../base/http/request-context.ts';
import { contentTypeOf, responseTextOf } from '../base/http/respond.ts';

export interface ObserveOptions {
  /** Called with every exchange, in order; one that throws is ignored (an observer never breaks a response). */
  observers: readonly ExchangeObserver[];
  /** Whether the exchange of this request should carry its bodies (the request journal's, which leaves its own reads out). */
  wantsBodies(request: Request): boolean;
}

/**
 * The one place exchanges are observed: around the whole served fetch (CORS included, so a
 * preflight answered there is seen as any other exchange), after the response is final. What the
 * core learned on the way (the route, the problem) comes in the request's context. When bodies are
 * wanted they are taken without reading anything twice: the text the core read, the bytes the
 * adapter buffered, a response built by respond(). Not an async function: the common case is
 * observed without another await.
 */
export function observeExchanges(fetch: FetchHandler, options: ObserveOptions): FetchHandler {
  return (request, context = {}) => {
    const startedAt = Date.now();
    const started = performance.now();
    return fetch(request, context).then((response) => observed(request, response, context, startedAt, started, options));
  };
}

function observed(request: Request, response: Response, context: RequestContext, startedAt: number, started: number, options: ObserveOptions) {
  const exchange: Exchange = {
    request,
    response,
    context,
    api: context.api ?? null,
    operationId: context.operationId ?? null,
    startedAt: new Date(startedAt),
    durationMs: performance.now() - started,
    problem: context.problem ?? null,
  };
  if (!options.wantsBodies(request)) return notify(exchange, options.observers);
  const contentType = contentTypeOf(response);
  if (isJournaledMedia(contentType)) {
    // Built by respond(): its text is known. Asking a server Response for its `body` would turn it
    // into a streamed one and cost the server its fast path for string bodies.
    const known = responseTextOf(response);
    if (known !== undefined) exchange.responseBody = known.length > MAX_JOURNALED_BYTES ? known.length : known;
    else if (response.body) return readingResponse(exchange, options.observers);
  } else exchange.responseBody = null;
  const requestBody = knownRequestBody(request, context);
  if (requestBody !== undefined) {
    exchange.requestBody = requestBody;
    return notify(exchange, options.observers);
  }
  return readRequestBody(request).then((read) => {
    exchange.requestBody = read;
    return notify(exchange, options.observers);
  });
}

/** A response not built by respond(): its body is read once, and the same bytes answered. */
async function readingResponse(exchange: Exchange, observers: readonly ExchangeObserver[]): Promise<Response> {
  const { request, response, context } = exchange;
  const bytes = new Uint8Array(await response.arrayBuffer());
  exchange.response = new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  exchange.responseBody = bytes.length > MAX_JOURNALED_BYTES ? bytes.length : UTF8.decode(bytes);
  const known = knownRequestBody(request, context);
  exchange.requestBody = known === undefined ? await readRequestBody(request) : known; // Not `??`: null means no body.
  return notify(exchange, observers);
}

function notify(exchange: Exchange, observers: readonly ExchangeObserver[]): Response {
  for (const observer of observers) {
    try {
      observer(exchange);
    } catch {
      // An observer must never break a response.
    }
  }
  return exchange.response;
}
