import { bearerToken, requireBearer } from '../../domain/auth/bearer.ts';
import type { TokenIssuer } from '../../domain/auth/tokens.ts';

/** Most tokens remembered; past it the memory starts over. */
const LIMIT = 1024;

/**
 * `requireBearer` with a memory of tokens that verified, so that an RPC client polling with one
 * Token pays the EdDSA check once (about 1 ms) rather than on every call. A remembered token is
 * still refused once its `exp` passes on the emulator's clock: it is then verified afresh, which
 * answers TOKEN_EXPIRED as usual.
 */
export class VerifiedTokens {
  readonly #expiries = new Map<string, number>();

  constructor(
    private readonly tokens: TokenIssuer,
    private readonly now: () => Date,
  ) {}

  /** `authorization`: the request's Authorization header, or null. */
  async require(authorization: string | null): Promise<void> {
    const token = bearerToken(authorization);
    if (token === null) return requireBearer(authorization, this.tokens);
    const expiry = this.#expiries.get(token);
    if (expiry !== undefined && this.now().getTime() < expiry) return;
    this.#expiries.delete(token);
    const claims = await this.tokens.verify(token);
    if (typeof claims.exp !== 'number') return;
    if (this.#expiries.size >= LIMIT) this.#expiries.clear();
    this.#expiries.set(token, claims.exp * 1000);
  }
}
