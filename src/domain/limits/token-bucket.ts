/** Options of a {@link TokenBucket}. */
export interface TokenBucketOptions {
  /** Tokens added per second (the sustained rate). Must be > 0. */
  ratePerSecond: number;
  /** Most tokens held at once (the burst). Must be ≥ 1. */
  capacity: number;
  /** Monotonic clock in milliseconds. */
  now: () => number;
}

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * A token bucket: starts full, refills continuously at `ratePerSecond` up to `capacity`, and each
 * request takes one token. When empty, it says how long until the next token.
 */
export class TokenBucket {
  readonly #options: TokenBucketOptions;
  #tokens: number;
  #updatedAt: number;

  constructor(options: TokenBucketOptions) {
    this.#options = options;
    this.#tokens = options.capacity;
    this.#updatedAt = options.now();
  }

  take(): TakeResult {
    const now = this.#options.now();
    const elapsedSeconds = Math.max(0, now - this.#updatedAt) / 1000;
    this.#tokens = Math.min(this.#options.capacity, this.#tokens + elapsedSeconds * this.#options.ratePerSecond);
    this.#updatedAt = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: (1 - this.#tokens) / this.#options.ratePerSecond };
  }

  /** True when the bucket is full again, so forgetting it changes nothing. */
  isFull(): boolean {
    const elapsedSeconds = Math.max(0, this.#options.now() - this.#updatedAt) / 1000;
    return this.#tokens + elapsedSeconds * this.#options.ratePerSecond >= this.#options.capacity;
  }
}
