import { RelayError } from '../../base/errors/relay-error.ts';
import type { ApiKeys } from './api-keys.ts';
import type { TokenIssuer } from './tokens.ts';
import { headerOf } from '../../base/http/request-header.ts';
import type { RequestContext } from '../../base/http/request-context.ts';

/**
 * Authentication of the current interface: `X-API-Key`, or `Authorization: Bearer <Token>` with
 * the Token from GET /Transaction/config. A key, when present, decides on its own.
 *
 * A key is checked at once: this returns undefined or throws. Only a bearer token, whose signature
 * check is asynchronous, makes it return a promise (which rejects when the token is refused). Most
 * requests carry a key, and sparing them an await spares the core a turn of the microtask queue.
 */
export function authenticate(request: Request, context: RequestContext, auth: { apiKeys: ApiKeys; tokens: TokenIssuer }): Promise<void> | undefined {
  const key = headerOf(request, context, 'x-api-key');
  if (key !== null) {
    if (!auth.apiKeys.matches(key)) throw new RelayError('API_KEY_INVALID');
    return undefined;
  }
  const bearer = bearerToken(headerOf(request, context, 'authorization'));
  if (bearer !== null) return auth.tokens.verify(bearer).then(ignore);
  throw new RelayError('API_KEY_MISSING', 'Send X-API-Key, or Authorization: Bearer <Token> from GET /Transaction/config.');
}

function ignore(): void {}

/** Verifies the bearer token; used where only the Token is accepted (the RPC endpoint). */
export async function requireBearer(authorization: string | null, tokens: TokenIssuer): Promise<void> {
  const bearer = bearerToken(authorization);
  if (bearer === null) throw new RelayError('TOKEN_MISSING', 'Authorization: Bearer <Token> is required; get Token from GET /Transaction/config.');
  await tokens.verify(bearer);
}

/** The token of an `Authorization: Bearer <token>` header, else null. */
export function bearerToken(authorization: string | null): string | null {
  const match = authorization === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1]! : null;
}
