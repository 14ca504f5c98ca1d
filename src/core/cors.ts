import { errorToResponse, problemOf } from '../base/http/error-response.ts';
import { isCompleteResponse, respond, responseTextOf } from '../base/http/respond.ts';
import { pathnameOf } from '../base/http/request-url.ts';
import type { RequestContext } from '../base/http/request-context.ts';
import type { Call } from '../base/http/router.ts';
import type { FetchHandler } from '../base/http/exchange.ts';
import { createCall } from './create-fetch.ts';
import type { Middleware, Next } from './room.ts';

/** Headers a browser app may always send; whatever a preflight asks for is allowed too. */
export const CORS_ALLOWED_HEADERS = ['Content-Type', 'X-API-Key', 'Authorization', 'X-Admin-Token', 'solana-client'];
/** Headers a browser app may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = ['Retry-After', 'Allow', 'Location'];
const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, HEAD, OPTIONS';

/** The guard of the control routes, as CORS needs it (AdminGuard). */
export interface ControlCorsGuard {
  /** True for a path of the control routes. */
  owns(pathname: string): boolean;
  /** Throws when the request may not reach them; else the Origin to allow (null: none sent), or undefined in process. */
  checkBrowser(request: Request, context: RequestContext): string | null | undefined;
}

export interface CorsOptions {
  /** The guards of routes whose CORS is closed to other origins (the control routes': see below). */
  guards?: readonly ControlCorsGuard[];
}

/**
 * CORS around the emulator's one fetch (so MSW and the server behave alike).
 *
 * The relay API, the RPC and the docs are open to every origin: preflights are answered 204 here
 * (with Chrome's Private Network Access, so a public page may call this local emulator), and every
 * other response may be read from any origin. No cookies are involved (the API key and the Token
 * are headers), so the wildcard origin is safe there.
 *
 * The control routes (`/__emulator/…`, the journals among them) are not, for a request that came
 * in over a socket: the guard refuses foreign hosts and origins before anything runs (403, a
 * preflight included, so the browser never sends the request), and their responses name no origin
 * but an allowed one, never `*`, and never allow a private network. In process (MSW) no page can
 * call them, and their CORS stays open.
 *
 * What is answered here without reaching the core (preflights, refused control requests) is
 * observed as any other exchange: the observers sit around this (src/core/observe-exchanges.ts).
 */
export function cors(options: CorsOptions = {}): Middleware {
  const guards = options.guards ?? [];
  return (call, next) => {
    const { request } = call;
    const guard = guards.length === 0 ? undefined : guards.find((each) => each.owns(pathnameOf(request.url)));
    if (guard) return guardedExchange(call, next, guard);
    return isPreflight(request) ? Promise.resolve(answerPreflight(request)) : next().then(ensureCors);
  };
}

/**
 * CORS around a fetch of your own (the public `withCors`): the same middleware the emulator's core
 * runs, with the control routes' guard when given.
 */
export function withCors(fetch: FetchHandler, options: { controls?: ControlCorsGuard } = {}): FetchHandler {
  const middleware = cors({ guards: options.controls ? [options.controls] : [] });
  return (request, context = {}) => middleware(createCall(request, context, undefined, 0), () => fetch(request, context));
}

function guardedExchange(call: Call, next: Next, guard: ControlCorsGuard): Promise<Response> {
  const { request } = call;
  let origin: string | null | undefined;
  try {
    origin = guard.checkBrowser(request, call.requestContext);
  } catch (error) {
    call.vars.api = 'emulator';
    call.vars.problem = problemOf(error);
    const refused = errorToResponse(error, { style: 'problem', instance: pathnameOf(request.url) });
    return Promise.resolve(withControlCors(refused, null));
  }
  if (origin === undefined) return isPreflight(request) ? Promise.resolve(answerPreflight(request)) : next().then(ensureCors);
  if (isPreflight(request)) {
    const headers: Record<string, string> = { ...preflightHeaders(request), Vary: 'Origin, Access-Control-Request-Headers' };
    if (origin !== null) headers['Access-Control-Allow-Origin'] = origin;
    return Promise.resolve(new Response(null, { status: 204, headers }));
  }
  const allowed = origin;
  return next().then((response) => withControlCors(response, allowed));
}

function answerPreflight(request: Request): Response {
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': '*',
    ...preflightHeaders(request),
    Vary: 'Origin, Access-Control-Request-Headers',
  };
  // Chrome's Private Network Access: a public page calling this local emulator asks first.
  if (request.headers.get('access-control-request-private-network') === 'true') headers['Access-Control-Allow-Private-Network'] = 'true';
  return new Response(null, { status: 204, headers });
}

function preflightHeaders(request: Request): Record<string, string> {
  return {
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': mergeHeaderLists(CORS_ALLOWED_HEADERS, request.headers.get('access-control-request-headers')),
    'Access-Control-Max-Age': '600',
  };
}

/** Responses built by respond() carry their CORS headers already; only the others are copied. */
function ensureCors(response: Response): Response {
  return isCompleteResponse(response) || response.headers.has('access-control-allow-origin') ? response : withCorsHeaders(response);
}

function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
}

const EXPOSED = CORS_EXPOSED_HEADERS.join(', ');

/**
 * A copy with the CORS headers. Not set in place: @hono/node-server's lightweight Response drops
 * header changes made before its body is first read (it rebuilds from the original init).
 */
function withCorsHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('Access-Control-Allow-Origin', '*');
  headers.set('Access-Control-Expose-Headers', EXPOSED);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A control route's response with its CORS headers replaced: the allowed origin, or none at all.
 * Rebuilt with respond() (the control routes answer text), so the journal still knows its body.
 */
function withControlCors(response: Response, origin: string | null): Response {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!name.startsWith('access-control-')) headers[name] = value;
  });
  headers.vary = headers.vary ? `${headers.vary}, Origin` : 'Origin';
  if (origin !== null) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-expose-headers'] = EXPOSED;
  }
  const text = responseTextOf(response);
  if (text === undefined) return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  return respond(text, { status: response.status, headers, cors: false });
}

function mergeHeaderLists(base: string[], requested: string | null): string {
  const seen = new Map(base.map((name) => [name.toLowerCase(), name]));
  for (const name of (requested ?? '').split(',').map((part) => part.trim())) {
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()].join(', ');
}
