import { isCompleteResponse } from '../http/respond.ts';
import type { Exchange, FetchHandler } from './create-fetch.ts';

/** Headers a browser app may always send; whatever a preflight asks for is allowed too. */
export const CORS_ALLOWED_HEADERS = ['Content-Type', 'X-API-Key', 'Authorization', 'X-Admin-Token', 'solana-client'];
/** Headers a browser app may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = ['Retry-After', 'Allow', 'Location'];
const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, HEAD, OPTIONS';

export interface CorsOptions {
  /** Told about each preflight answered here (which never reaches the core), for request logs. */
  onPreflight?: (exchange: Exchange) => void;
}

/**
 * CORS for browser apps, around the emulator's one fetch (so MSW and the server behave alike):
 * preflights are answered 204 here, and every other response may be read from any origin. No
 * cookies are involved (the API key and the Token are headers), so the wildcard origin is safe.
 */
export function withCors(fetch: FetchHandler, options: CorsOptions = {}): FetchHandler {
  return (request) => (isPreflight(request) ? Promise.resolve(answerPreflight(request, options)) : fetch(request).then(ensureCors));
}

function answerPreflight(request: Request, options: CorsOptions): Response {
  const startedAt = new Date();
  const requested = request.headers.get('access-control-request-headers');
  const headers = new Headers({
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': mergeHeaderLists(CORS_ALLOWED_HEADERS, requested),
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Headers',
  });
  // Chrome's Private Network Access: a public page calling this local emulator asks first.
  if (request.headers.get('access-control-request-private-network') === 'true') headers.set('Access-Control-Allow-Private-Network', 'true');
  const response = new Response(null, { status: 204, headers });
  options.onPreflight?.({ request, response, api: null, operationId: null, startedAt, durationMs: 0 });
  return response;
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

function mergeHeaderLists(base: string[], requested: string | null): string {
  const seen = new Map(base.map((name) => [name.toLowerCase(), name]));
  for (const name of (requested ?? '').split(',').map((part) => part.trim())) {
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()].join(', ');
}
