import { describe, expect, it } from 'vitest';
import { waitFor, type WaitClock } from './wait-for.ts';

/** A clock that only moves when waitFor sleeps, and records each pause. */
function fakeClock(): WaitClock & { sleeps: number[]; at: number } {
  const clock = {
    at: 1_000,
    sleeps: [] as number[],
    now: () => clock.at,
    async sleep(ms: number) {
      clock.sleeps.push(ms);
      clock.at += ms;
    },
  };
  return clock;
}

describe('waitFor', () => {
  it('probes until the condition holds and returns that value, with the time it took on its clock', async () => {
    const clock = fakeClock();
    let n = 0;
    const result = await waitFor(
      async () => ++n,
      (v) => v === 3,
      { timeoutMs: 1_000, clock },
    );
    expect(result).toEqual({ met: true, value: 3, elapsedMs: 60 });
    // Two pauses between three probes, the second twice the first.
    expect(clock.sleeps).toEqual([20, 40]);
  });

  it('does not pause at all when the condition already holds', async () => {
    const clock = fakeClock();
    const result = await waitFor(
      async () => 'ready',
      (v) => v === 'ready',
      { timeoutMs: 0, clock },
    );
    expect(result).toEqual({ met: true, value: 'ready', elapsedMs: 0 });
    expect(clock.sleeps).toEqual([]);
  });

  it('doubles the pause up to maxIntervalMs and gives up before a pause would pass the deadline, with the last value', async () => {
    const clock = fakeClock();
    let n = 0;
    const result = await waitFor(
      async () => ++n,
      () => false,
      { timeoutMs: 100, intervalMs: 5, maxIntervalMs: 30, clock },
    );
    // 5 + 10 + 20 + 30 = 65 ms slept; one more 30 ms pause would end at 95 ≤ 100, the next at 125 > 100.
    expect(clock.sleeps).toEqual([5, 10, 20, 30, 30]);
    expect(result).toEqual({ met: false, last: 6, elapsedMs: 95 });
    expect(n).toBe(6);
  });

  it('counts slow probes against the deadline', async () => {
    const clock = fakeClock();
    const result = await waitFor(
      async () => {
        clock.at += 70; // each probe takes 70 ms of the budget
        return false;
      },
      (v) => v,
      { timeoutMs: 100, intervalMs: 20, clock },
    );
    expect(result).toEqual({ met: false, last: false, elapsedMs: 160 });
    expect(clock.sleeps).toEqual([20]);
  });

  it('waits on real time by default', async () => {
    let n = 0;
    const result = await waitFor(
      async () => ++n,
      (v) => v === 2,
      { timeoutMs: 1_000, intervalMs: 1 },
    );
    expect(result).toMatchObject({ met: true, value: 2 });
  });
});
