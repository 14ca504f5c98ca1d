import { describe, expect, it } from 'vitest';
import { epochOf } from './epoch-schedule.ts';

describe('epochOf', () => {
  it('counts 432,000-slot epochs from slot 0, the leader schedule one epoch ahead', () => {
    expect(epochOf(0n)).toEqual({ epoch: 0n, firstSlot: 0n, slotIndex: 0n, slotsInEpoch: 432_000n, leaderScheduleEpoch: 1n });
    expect(epochOf(431_999n)).toMatchObject({ epoch: 0n, slotIndex: 431_999n, leaderScheduleEpoch: 1n });
    expect(epochOf(432_000n)).toMatchObject({ epoch: 1n, firstSlot: 432_000n, slotIndex: 0n, leaderScheduleEpoch: 2n });
    expect(epochOf(1_000_000n)).toMatchObject({ epoch: 2n, firstSlot: 864_000n, slotIndex: 136_000n, leaderScheduleEpoch: 3n });
  });
});
