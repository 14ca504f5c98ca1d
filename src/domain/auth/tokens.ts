import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { RelayError } from '../../base/errors/relay-error.ts';

export interface TokenIssuerOptions {
  /** Private Ed25519 key that signs tokens (alg EdDSA). */
  signingKey: KeyObject;
  /** `iss` and `aud` claims. */
  issuer: string;
  audience: string;
  /** Token lifetime in seconds. */
  ttlSeconds: number;
  /** The clock tokens are issued and checked against. */
  now: () => Date;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** Issues and verifies the `Token` of GET /Transaction/config: a real, signed JWT. */
export class TokenIssuer {
  readonly #options: TokenIssuerOptions;
  readonly #publicKey: KeyObject;
  /** Tokens issued in the current second, by subject: `iat` has one-second resolution, so a token
   * issued again within the same second would carry identical claims. Signing is the expensive part
   * of GET /Transaction/config. */
  readonly #recent = new Map<string, { issuedAt: number; issued: Promise<IssuedToken> }>();

  constructor(options: TokenIssuerOptions) {
    this.#options = options;
    this.#publicKey = createPublicKey(options.signingKey);
  }

  issue(subject: string): Promise<IssuedToken> {
    const issuedAt = Math.floor(this.#options.now().getTime() / 1000);
    const recent = this.#recent.get(subject);
    if (recent?.issuedAt === issuedAt) return recent.issued;
    if (this.#recent.size > 1000) this.#recent.clear();
    const issued = this.#sign(subject, issuedAt);
    this.#recent.set(subject, { issuedAt, issued });
    issued.catch(() => this.#recent.delete(subject));
    return issued;
  }

  async #sign(subject: string, issuedAt: number): Promise<IssuedToken> {
    const expiresAt = issuedAt + this.#options.ttlSeconds;
    const { SignJWT } = await loadJose();
    const token = await new SignJWT({ scope: 'relay' })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setIssuer(this.#options.issuer)
      .setAudience(this.#options.audience)
      .setSubject(subject)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.#options.signingKey);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  /** Resolves with the claims, or throws TOKEN_EXPIRED / TOKEN_INVALID. */
  async verify(token: string): Promise<Record<string, unknown>> {
    const { errors, jwtVerify } = await loadJose();
    try {
      const { payload } = await jwtVerify(token, this.#publicKey, {
        issuer: this.#options.issuer,
        audience: this.#options.audience,
        algorithms: ['EdDSA'],
        currentDate: this.#options.now(),
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JWTExpired)
        throw new RelayError('TOKEN_EXPIRED', `The bearer token expired at ${new Date(Number(error.payload.exp) * 1000).toISOString()}.`);
      throw new RelayError('TOKEN_INVALID', `The bearer token was rejected: ${(error as Error).message}`);
    }
  }
}

/** jose, loaded with the first Token issued or checked: an emulator nobody asks for a Token never loads it (~40 ms of a cold start). */
function loadJose(): Promise<typeof import('jose')> {
  return (jose ??= import('jose'));
}
let jose: Promise<typeof import('jose')> | undefined;
