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
