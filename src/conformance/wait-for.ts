/**
 * Polls `probe` until `done(value)` holds or `timeoutMs` passes. Relay submission is asynchronous,
 * so effects are observed this way, with a bounded wait.
 */
export interface WaitOptions {
  /** Give up after this long. */
  timeoutMs: number;
  /** First pause between probes; doubles up to maxIntervalMs. Default 20 ms. */
  intervalMs?: number;
  /** Default 500 ms. */
  maxIntervalMs?: number;
  /** How time is read and waited for. Default: performance.now() and setTimeout. */
  clock?: WaitClock;
}

/** The time source of {@link waitFor}: tests pass one they drive themselves. */
export interface WaitClock {
  /** Milliseconds from any fixed origin. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: WaitClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export type WaitResult<T> = { met: true; value: T; elapsedMs: number } | { met: false; last: T | undefined; elapsedMs: number };

export async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, options: WaitOptions): Promise<WaitResult<T>> {
  const clock = options.clock ?? REAL_CLOCK;
  const started = clock.now();
  let interval = options.intervalMs ?? 20;
  const maxInterval = options.maxIntervalMs ?? 500;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    const elapsedMs = clock.now() - started;
    if (done(last)) return { met: true, value: last, elapsedMs };
    if (elapsedMs + interval > options.timeoutMs) return { met: false, last, elapsedMs };
    await clock.sleep(interval);
    interval = Math.min(interval * 2, maxInterval);
  }
}
