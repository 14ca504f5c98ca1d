import { RelayError } from '../../base/errors/relay-error.ts';
import type { TokenIssuer } from './tokens.ts';

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

/**
 * The claims of a JWT, read without checking its signature (as jose's `decodeJwt`): for a token the
 * auth middleware has verified already. Throws on anything that is not three base64url parts with a
 * JSON object in the middle.
 */
export function jwtClaims(token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new TypeError('a JWT has three parts');
  const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new TypeError('a JWT carries a JSON object of claims');
  return claims as Record<string, unknown>;
}
