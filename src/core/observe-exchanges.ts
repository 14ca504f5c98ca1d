import type { EventSink } from '../base/events/emitter.ts';
import { isJournaledMedia, knownRequestBody, MAX_JOURNALED_BYTES, readRequestBody, UTF8 } from '../base/http/exchange-bodies.ts';
import type { Exchange } from '../base/http/exchange.ts';
import { contentTypeOf, responseTextOf } from '../base/http/respond.ts';
import type { Call } from '../base/http/router.ts';
import type { Middleware } from './room.ts';

/** The event the exchanges are told as. */
export interface ExchangeEvents {
  exchange: Exchange;
}

export interface ObserveOptions {
  /** Where each exchange is emitted, in order (a listener that throws never breaks a response). */
  events: EventSink<ExchangeEvents>;
  /** Whether the exchange of this request should carry its bodies (the request journal's, which leaves its own reads out). */
  wantsBodies(request: Request): boolean;
}

/**
 * The one place exchanges are observed: the outermost middleware (around CORS, so a preflight
 * answered there is seen as any other exchange), after the response is final. What the core
 * learned on the way (the interface, the operation, the refusal) comes in the request's store.
 * When bodies are wanted they are taken without reading anything twice: the text the core read,
 * the bytes the adapter buffered, a response built by respond(). Nobody listening costs one check.
 */
export function observeExchanges(options: ObserveOptions): Middleware {
  return (call, next) => {
    if (!options.events.listening('exchange')) return next();
    const startedAt = Date.now();
    const started = performance.now();
    return next().then((response) => observed(call, response, startedAt, started, options));
  };
}

function observed(call: Call, response: Response, startedAt: number, started: number, options: ObserveOptions) {
  const { request, requestContext: context, vars } = call;
  const exchange: Exchange = {
    request,
    response,
    context,
    vars,
    api: vars.api,
    operationId: vars.operationId,
    startedAt: new Date(startedAt),
    durationMs: performance.now() - started,
    problem: vars.problem ?? vars.refusal,
  };
  if (!options.wantsBodies(request)) return notify(exchange, options.events);
  const contentType = contentTypeOf(response);
  if (isJournaledMedia(contentType)) {
    // Built by respond(): its text is known. Asking a server Response for its `body` would turn it
    // into a streamed one and cost the server its fast path for string bodies.
    const known = responseTextOf(response);
    if (known !== undefined) exchange.responseBody = known.length > MAX_JOURNALED_BYTES ? known.length : known;
    else if (response.body) return readingResponse(exchange, options.events);
  } else exchange.responseBody = null;
  const requestBody = knownRequestBody(request, context, vars);
  if (requestBody !== undefined) {
    exchange.requestBody = requestBody;
    return notify(exchange, options.events);
  }
  return readRequestBody(request).then((read) => {
    exchange.requestBody = read;
    return notify(exchange, options.events);
  });
}

/** A response not built by respond(): its body is read once, and the same bytes answered. */
async function readingResponse(exchange: Exchange, events: EventSink<ExchangeEvents>): Promise<Response> {
  const { request, response, context, vars } = exchange;
  const bytes = new Uint8Array(await response.arrayBuffer());
  exchange.response = new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  exchange.responseBody = bytes.length > MAX_JOURNALED_BYTES ? bytes.length : UTF8.decode(bytes);
  const known = knownRequestBody(request, context, vars);
  exchange.requestBody = known === undefined ? await readRequestBody(request) : known; // Not `??`: null means no body.
  return notify(exchange, events);
}

function notify(exchange: Exchange, events: EventSink<ExchangeEvents>): Response {
  events.emit('exchange', exchange);
  return exchange.response;
}
