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
  throw new RelayError('API_KEY_MISSING', 'Send X-API-Key, or Authorization: Bearer <Token> from GET /Transaction/config.');
};

/** The per-API-key rate limit (option `rateLimit`): 429 with Retry-After past it. Mounted only when on. */
export const rateLimit: Middleware<CurrentDeps> = (call, next) => {
  call.deps.rateLimiter?.take(call.request, call.requestContext);
  return next();
};
