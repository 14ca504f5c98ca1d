import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for.ts';

describe('waitFor', () => {
  it('returns as soon as the condition holds', async () => {
    let n = 0;
    const result = await waitFor(async () => ++n, (v) => v === 3, { timeoutMs: 1000, intervalMs: 1 });
    expect(result).toMatchObject({ met: true, value: 3 });
  });

  it('gives up after the timeout with the last value seen', async () => {
    let n = 0;
    const result = await waitFor(async () => ++n, () => false, { timeoutMs: 60, intervalMs: 5, maxIntervalMs: 10 });
    expect(result.met).toBe(false);
    expect(result.elapsedMs).toBeLessThan(200);
    if (!result.met) expect(result.last).toBe(n);
  });
});
