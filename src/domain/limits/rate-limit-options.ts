/**
 * The per-API-key rate limit of the current interface: a token bucket per key that holds `burst`
 * requests and refills at `requestsPerSecond`. `null` turns it off, the default, since test suites
 * burst. Past the limit, requests answer 429 RATE_LIMITED with `Retry-After`.
 */
export interface RateLimitOptions {
  /** Sustained requests per second per key (> 0; fractions allowed, e.g. 0.5 = one every 2 s). */
  requestsPerSecond: number;
  /** Requests a key may make at once before the rate applies (an integer ≥ 1). */
  burst: number;
}

export function validateRateLimit(options: RateLimitOptions | null): RateLimitOptions | null {
  if (options === null) return null;
  const { requestsPerSecond, burst } = options;
  if (typeof requestsPerSecond !== 'number' || !Number.isFinite(requestsPerSecond) || requestsPerSecond <= 0) {
    throw new TypeError(`rateLimit.requestsPerSecond must be a positive number, got ${String(requestsPerSecond)}`);
  }
  if (!Number.isInteger(burst) || burst < 1) throw new TypeError(`rateLimit.burst must be an integer ≥ 1, got ${String(burst)}`);
  return { requestsPerSecond, burst };
}
