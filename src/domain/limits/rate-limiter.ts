import { apiKeyId } from '../auth/api-keys.ts';
import { bearerToken, jwtClaims } from '../auth/bearer.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { RateLimitOptions } from './rate-limit-options.ts';
import { TokenBucket } from './token-bucket.ts';
import { headerOf } from '../../base/http/request-header.ts';
import type { RequestContext } from '../../base/http/request-context.ts';

/** Buckets kept at most; full ones are forgotten first, since forgetting them changes nothing. */
const MAX_BUCKETS = 10_000;

/**
 * Rate limits authenticated requests per API key. A bearer Token counts against the key it was
 * issued to (its `sub` is the key's id), so switching credentials does not reset the budget.
 * Call it after authentication: it trusts the credentials it reads.
 */
export class RateLimiter {
  readonly #options: RateLimitOptions;
  readonly #now: () => number;
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(options: RateLimitOptions, clock: { now: () => number } = performance) {
    this.#options = options;
    this.#now = () => clock.now();
  }

  /** Takes one request from the caller's budget, or throws 429 RATE_LIMITED with Retry-After. */
  take(request: Request, context: RequestContext): void {
    const identity = identityOf(request, context);
    let bucket = this.#buckets.get(identity);
    if (!bucket) {
      this.#evict();
      bucket = new TokenBucket({ ratePerSecond: this.#options.requestsPerSecond, capacity: this.#options.burst, now: this.#now });
      this.#buckets.set(identity, bucket);
    }
    const result = bucket.take();
    if (!result.ok) {
      const retryAfter = Math.max(1, Math.ceil(result.retryAfterSeconds));
      throw new RelayError(
        'RATE_LIMITED',
        `This API key made more than ${this.#options.burst} requests at once or ${this.#options.requestsPerSecond} per second; retry in ${retryAfter} s.`,
        { retryAfter },
      );
    }
  }

  /** Forgets every bucket (emulator reset). */
  reset(): void {
    this.#buckets.clear();
  }

  #evict(): void {
    if (this.#buckets.size < MAX_BUCKETS) return;
    for (const [identity, bucket] of this.#buckets) if (bucket.isFull()) this.#buckets.delete(identity);
    // Still full of busy keys: drop the oldest, which errs on the side of letting requests through.
    if (this.#buckets.size >= MAX_BUCKETS) this.#buckets.delete(this.#buckets.keys().next().value!);
  }
}

function identityOf(request: Request, context: RequestContext): string {
  const key = headerOf(request, context, 'x-api-key');
  if (key !== null) return apiKeyId(key);
  const token = bearerToken(headerOf(request, context, 'authorization'));
  if (token !== null) {
    try {
      const subject = jwtClaims(token).sub;
      if (typeof subject === 'string') return subject;
    } catch {
      // Authenticated tokens always decode; fall through to a shared bucket rather than throw.
    }
  }
  return 'anonymous';
}
