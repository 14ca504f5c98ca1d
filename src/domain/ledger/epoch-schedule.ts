/**
 * The ledger's epoch schedule: the one place epochs are worked out. The Ledger's clock, which the
 * engine writes into the Clock sysvar, and the RPC's getEpochInfo and getEpochSchedule all read
 * it, so they agree after any warp. It is mainnet's schedule: 432,000 slots per epoch from slot 0,
 * no warm-up, the leader schedule one epoch ahead.
 */
export const EPOCH_SCHEDULE = {
  slotsPerEpoch: 432_000n,
  leaderScheduleSlotOffset: 432_000n,
  warmup: false,
  firstNormalEpoch: 0n,
  firstNormalSlot: 0n,
} as const;

export interface EpochPosition {
  epoch: bigint;
  /** The epoch's first slot. */
  firstSlot: bigint;
  /** `slot`'s index within its epoch. */
  slotIndex: bigint;
  slotsInEpoch: bigint;
  /** The epoch whose leader schedule is known at `slot`. */
  leaderScheduleEpoch: bigint;
}

export function epochOf(slot: bigint): EpochPosition {
  const { slotsPerEpoch, leaderScheduleSlotOffset } = EPOCH_SCHEDULE;
  const epoch = slot / slotsPerEpoch;
  const firstSlot = epoch * slotsPerEpoch;
  return { epoch, firstSlot, slotIndex: slot - firstSlot, slotsInEpoch: slotsPerEpoch, leaderScheduleEpoch: (slot + leaderScheduleSlotOffset) / slotsPerEpoch };
}
