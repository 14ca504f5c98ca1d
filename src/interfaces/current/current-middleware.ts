import { RelayError } from '../../base/errors/relay-error.ts';
import { headerOf } from '../../base/http/request-header.ts';
import type { Middleware } from '../../core/room.ts';
import { bearerToken } from '../../domain/auth/bearer.ts';
import type { CurrentDeps } from './current-deps.ts';

/**
 * Authentication of the current interface: `X-API-Key`, or `Authorization: Bearer <Token>` with
 * the Token from GET /Transaction/config. A key, when present, decides on its own.
 *
 * A key is checked at once: the chain goes on, or this throws. Only a bearer token, whose signature
 * check is asynchronous, waits. Most requests carry a key, and sparing them an await spares them a
 * turn of the microtask queue.
 */
export const apiKeyCheck: Middleware<CurrentDeps> = (call, next) => {
  const { request, requestContext, deps } = call;
  const key = headerOf(request, requestContext, 'x-api-key');
  if (key !== null) {
    if (!deps.apiKeys.matches(key)) throw new RelayError('API_KEY_INVALID');
    return next();
  }
  const bearer = bearerToken(headerOf(request, requestContext, 'authorization'));
  if (bearer !== null) return deps.tokens.verify(bearer).then(next);
  const operationId = call.vars.operationId;
  if (operationId !== null && SHARED_WITH_LEGACY.has(operationId)) return bodyBeforeKey(call, operationId);
  throw missingKey();
};

/**
 * The operations whose path the legacy interface shares (POST account/create, account/close): a
 * request there with no credential and a body neither interface can read (none, not JSON, not the
 * current body) may be a legacy client's, which never sends a key. The body is judged first, so it
 * is answered 400 (415) as both operations' contracts say, not 401, which the legacy one does not
 * list (issue 45, item 12); a current body without a credential is still 401.
 */
const SHARED_WITH_LEGACY: ReadonlySet<string> = new Set(['createAccount', 'closeAccount']);

async function bodyBeforeKey(call: Parameters<Middleware<CurrentDeps>>[0], operationId: string): Promise<Response> {
  call.deps.binder.body(operationId as 'createAccount', await call.body());
  throw missingKey();
}

function missingKey(): RelayError {
  return new RelayError('API_KEY_MISSING', 'Send X-API-Key, or Authorization: Bearer <Token> from GET /Transaction/config.');
}

/** The per-API-key rate limit (option `rateLimit`): 429 with Retry-After past it. Mounted only when on. */
export const rateLimit: Middleware<CurrentDeps> = (call, next) => {
  call.deps.rateLimiter?.take(call.request, call.requestContext);
  return next();
};
