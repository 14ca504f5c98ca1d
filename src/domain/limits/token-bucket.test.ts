import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.ts';

describe('TokenBucket', () => {
  it('lets a burst through, then refuses with the wait until the next token, then refills', () => {
    let now = 0;
    const bucket = new TokenBucket({ ratePerSecond: 2, capacity: 3, now: () => now });
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(bucket.take()).toEqual({ ok: false, retryAfterSeconds: 0.5 });
    now += 250;
    expect(bucket.take()).toEqual({ ok: false, retryAfterSeconds: 0.25 });
    now += 250;
    expect(bucket.take()).toEqual({ ok: true });
    expect(bucket.isFull()).toBe(false);
    now += 10_000;
    expect(bucket.isFull()).toBe(true);
    // Refill stops at the capacity: after a long pause, still only a burst of 3.
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()].map((result) => result.ok)).toEqual([true, true, true, false]);
  });

  it('never refills backwards when the clock goes back', () => {
    let now = 1_000;
    const bucket = new TokenBucket({ ratePerSecond: 1, capacity: 1, now: () => now });
    expect(bucket.take().ok).toBe(true);
    now = 0;
    expect(bucket.take()).toEqual({ ok: false, retryAfterSeconds: 1 });
  });
});
