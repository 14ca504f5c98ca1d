/**
 * The ledger's epoch schedule: the one place epochs are worked out. The Ledger's clock, which the
 * engine writes into the Clock sysvar, the EpochSchedule sysvar, and the RPC's getEpochInfo and
 * getEpochSchedule all read it, so they agree after any warp. By default it is mainnet's schedule:
 * 432,000 slots per epoch from slot 0, no warm-up, the leader schedule one epoch ahead;
 * solana-test-validator's `--slots-per-epoch N` (Anchor.toml's `slots_per_epoch`) makes epochs of
 * N slots, as the validator's genesis does (without warm-up, as its test genesis sets it).
 */
export class EpochSchedule {
  readonly slotsPerEpoch: bigint;
  readonly leaderScheduleSlotOffset: bigint;
  readonly warmup = false;
  readonly firstNormalEpoch = 0n;
  readonly firstNormalSlot = 0n;

  constructor(slotsPerEpoch: bigint = MAINNET_SLOTS_PER_EPOCH) {
    if (slotsPerEpoch < MIN_SLOTS_PER_EPOCH) throw new RangeError(`an epoch holds at least ${MIN_SLOTS_PER_EPOCH} slots, not ${slotsPerEpoch}`);
    this.slotsPerEpoch = slotsPerEpoch;
    this.leaderScheduleSlotOffset = slotsPerEpoch;
  }

  epochOf(slot: bigint): EpochPosition {
    const epoch = slot / this.slotsPerEpoch;
    const firstSlot = epoch * this.slotsPerEpoch;
    return {
      epoch,
      firstSlot,
      slotIndex: slot - firstSlot,
      slotsInEpoch: this.slotsPerEpoch,
      leaderScheduleEpoch: (slot + this.leaderScheduleSlotOffset) / this.slotsPerEpoch,
    };
  }

  /** The first slot of `epoch`. */
  firstSlotOf(epoch: bigint): bigint {
    return epoch * this.slotsPerEpoch;
  }

  /** The EpochSchedule sysvar's bytes (bincode: three u64, a bool, two u64; 33 bytes). */
  sysvarData(): Uint8Array {
    const data = new Uint8Array(33);
    const view = new DataView(data.buffer);
    view.setBigUint64(0, this.slotsPerEpoch, true);
    view.setBigUint64(8, this.leaderScheduleSlotOffset, true);
    data[16] = this.warmup ? 1 : 0;
    view.setBigUint64(17, this.firstNormalEpoch, true);
    view.setBigUint64(25, this.firstNormalSlot, true);
    return data;
  }
}

const MAINNET_SLOTS_PER_EPOCH = 432_000n;
/** MINIMUM_SLOTS_PER_EPOCH, which solana-test-validator's `--slots-per-epoch` enforces. */
export const MIN_SLOTS_PER_EPOCH = 32n;

/** Mainnet's: what the ledger keeps unless told otherwise. */
export const MAINNET_EPOCH_SCHEDULE = new EpochSchedule();

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
