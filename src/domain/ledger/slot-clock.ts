import type { EngineClock } from './engine.ts';
import type { EpochSchedule } from './epoch-schedule.ts';
import type { ClockMark } from './ledger-changes.ts';
import type { LedgerClock } from './ledger-types.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';

/** Where slots and block height start; Ledger.create opens the next slot at once. */
const FIRST_SLOT = 1n;

/**
 * The ledger's slots, block height and seeded clock: where it stands, what the Clock sysvar says
 * at any slot, and how many transactions the current slot still takes. Pure bookkeeping: the
 * Ledger moves it and tells the engine.
 *
 * A transaction lands in the current slot until that slot holds `transactionsPerSlot` of them;
 * the next one opens the next slot. A warp forward or an expiry opens a slot too (empty: the next
 * transaction lands in it). So each transaction is in exactly one slot, slots never go back, and
 * within a slot transactions keep the order they were processed in. Block height counts slots,
 * and blockhash validity counts block height (150 blocks, never transactions).
 */
export class SlotClock {
  #slot = FIRST_SLOT;
  #blockHeight = FIRST_SLOT;
  /** Transactions processed in the current slot. */
  #inSlot = 0;
  #timeOffset = 0n;
  readonly #genesisTime: Date;
  readonly #slotMs: number;
  readonly #perSlot: number;
  readonly #schedule: EpochSchedule;

  /** `genesisTime`: unix time of slot 0; `slotMs`: wall time a slot represents; `perSlot`: transactions a slot holds; `schedule`: its epochs. */
  constructor(options: { genesisTime: Date; slotMs: number; perSlot: number; schedule: EpochSchedule }) {
    this.#genesisTime = options.genesisTime;
    this.#slotMs = options.slotMs;
    this.#perSlot = options.perSlot;
    this.#schedule = options.schedule;
  }

  get slot(): bigint {
    return this.#slot;
  }

  get blockHeight(): bigint {
    return this.#blockHeight;
  }

  /** Genesis hash stand-in: stable for a given genesis time. */
  get genesisHash(): string {
    const seed = new Uint8Array(32);
    new DataView(seed.buffer).setBigUint64(0, BigInt(this.#genesisTime.getTime()));
    return encodeBase58(seed);
  }

  clock(): LedgerClock {
    return { ...this.engineClockAt(this.#slot), blockHeight: this.#blockHeight };
  }

  /** The Clock sysvar at `slot`: the one place its epoch fields are worked out. */
  engineClockAt(slot: bigint): EngineClock {
    const { epoch, firstSlot, leaderScheduleEpoch } = this.#schedule.epochOf(slot);
    return { slot, epochStartTimestamp: this.unixAt(firstSlot), epoch, leaderScheduleEpoch, unixTimestamp: this.unixAt(slot) };
  }

  mark(): ClockMark {
    return { slot: this.#slot, blockHeight: this.#blockHeight, unixTimestamp: this.unixAt(this.#slot) };
  }

  unixAt(slot: bigint): bigint {
    const genesis = BigInt(Math.floor(this.#genesisTime.getTime() / 1000));
    return genesis + (slot * BigInt(this.#slotMs)) / 1000n + this.#timeOffset;
  }

  /** Opens `slot`, `blocks` blocks further on, empty. */
  moveTo(slot: bigint, blocks: bigint): void {
    this.#slot = slot;
    this.#inSlot = 0;
    this.#blockHeight += blocks;
  }

  /** True when the current slot holds as many transactions as a slot takes: the next one opens a new slot. */
  isFull(): boolean {
    return this.#inSlot >= this.#perSlot;
  }

  /** Counts one more transaction in the current slot. */
  seat(): void {
    this.#inSlot += 1;
  }

  /** Shifts the clock so that `slot` reads `unixTimestamp`. */
  setTime(slot: bigint, unixTimestamp: bigint): void {
    this.#timeOffset += unixTimestamp - this.unixAt(slot);
  }

  /** Goes where a snapshot or journal left the clock; the slot never goes back. Returns the slot it is in. */
  restore(clock: ClockMark): bigint {
    const slot = clock.slot > this.#slot ? clock.slot : this.#slot;
    this.setTime(slot, clock.unixTimestamp);
    // A slot restored to is open again: it takes transactions until it holds transactionsPerSlot.
    if (slot !== this.#slot) this.#inSlot = 0;
    this.#slot = slot;
    this.#blockHeight = clock.blockHeight;
    return slot;
  }
}
