import { MAINNET_EPOCH_SCHEDULE } from './epoch-schedule.ts';
import { describe, expect, it } from 'vitest';
import { SlotClock } from './slot-clock.ts';

const GENESIS = new Date('2026-01-01T00:00:00Z');
const genesisUnix = BigInt(GENESIS.getTime() / 1000);

describe('SlotClock', () => {
  it('fills a slot with perSlot transactions, and a move opens the next one empty', () => {
    const clock = new SlotClock({ genesisTime: GENESIS, slotMs: 400, perSlot: 2, schedule: MAINNET_EPOCH_SCHEDULE });
    expect(clock.isFull()).toBe(false);
    clock.seat();
    clock.seat();
    expect(clock.isFull()).toBe(true);
    clock.moveTo(clock.slot + 1n, 1n);
    expect(clock.isFull()).toBe(false);
    expect(clock.clock()).toMatchObject({ slot: 2n, blockHeight: 2n });
  });

  it('derives unix time from the slot, and setTime shifts every slot by the same offset', () => {
    const clock = new SlotClock({ genesisTime: GENESIS, slotMs: 400, perSlot: 64, schedule: MAINNET_EPOCH_SCHEDULE });
    expect(clock.unixAt(10n)).toBe(genesisUnix + 4n);
    clock.setTime(10n, genesisUnix + 100n);
    expect(clock.unixAt(10n)).toBe(genesisUnix + 100n);
    expect(clock.unixAt(20n)).toBe(genesisUnix + 104n);
    expect(clock.engineClockAt(20n)).toMatchObject({ slot: 20n, epoch: 0n, unixTimestamp: genesisUnix + 104n });
  });

  it('restores a mark without going back a slot, and reopens a slot it moved to', () => {
    const clock = new SlotClock({ genesisTime: GENESIS, slotMs: 400, perSlot: 1, schedule: MAINNET_EPOCH_SCHEDULE });
    clock.moveTo(5n, 4n);
    clock.seat();
    expect(clock.restore({ slot: 3n, blockHeight: 5n, unixTimestamp: genesisUnix + 50n })).toBe(5n);
    expect(clock.isFull()).toBe(true);
    expect(clock.restore({ slot: 9n, blockHeight: 9n, unixTimestamp: genesisUnix + 60n })).toBe(9n);
    expect(clock.isFull()).toBe(false);
    expect(clock.mark()).toEqual({ slot: 9n, blockHeight: 9n, unixTimestamp: genesisUnix + 60n });
  });

  it('names genesis by its time', () => {
    const a = new SlotClock({ genesisTime: GENESIS, slotMs: 400, perSlot: 1, schedule: MAINNET_EPOCH_SCHEDULE });
    const b = new SlotClock({ genesisTime: new Date('2027-01-01T00:00:00Z'), slotMs: 400, perSlot: 1, schedule: MAINNET_EPOCH_SCHEDULE });
    expect(a.genesisHash).toBe(new SlotClock({ genesisTime: GENESIS, slotMs: 400, perSlot: 1, schedule: MAINNET_EPOCH_SCHEDULE }).genesisHash);
    expect(a.genesisHash).not.toBe(b.genesisHash);
  });
});
