import { describe, expect, it } from 'vitest';
import { EpochSchedule, MAINNET_EPOCH_SCHEDULE } from './epoch-schedule.ts';

const epochOf = (slot: bigint) => MAINNET_EPOCH_SCHEDULE.epochOf(slot);

describe('epochOf', () => {
  it('counts 432,000-slot epochs from slot 0, the leader schedule one epoch ahead', () => {
    expect(epochOf(0n)).toEqual({ epoch: 0n, firstSlot: 0n, slotIndex: 0n, slotsInEpoch: 432_000n, leaderScheduleEpoch: 1n });
    expect(epochOf(431_999n)).toMatchObject({ epoch: 0n, slotIndex: 431_999n, leaderScheduleEpoch: 1n });
    expect(epochOf(432_000n)).toMatchObject({ epoch: 1n, firstSlot: 432_000n, slotIndex: 0n, leaderScheduleEpoch: 2n });
    expect(epochOf(1_000_000n)).toMatchObject({ epoch: 2n, firstSlot: 864_000n, slotIndex: 136_000n, leaderScheduleEpoch: 3n });
  });

  it('makes epochs of --slots-per-epoch slots, and writes them as the sysvar does', () => {
    const schedule = new EpochSchedule(64n);
    expect(schedule.epochOf(130n)).toEqual({ epoch: 2n, firstSlot: 128n, slotIndex: 2n, slotsInEpoch: 64n, leaderScheduleEpoch: 3n });
    const data = schedule.sysvarData();
    expect(data).toHaveLength(33);
    expect(Buffer.from(data).readBigUInt64LE(0)).toBe(64n);
    expect(() => new EpochSchedule(31n)).toThrow(/at least 32 slots/);
  });
});
