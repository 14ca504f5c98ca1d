import { encodeBase58 } from '../../base/crypto/base58.ts';

/**
 * jsonParsed `{type, info}` of a sysvar account, as Agave 4.1's account-decoder (parse_sysvar.rs)
 * gives it, or null where it falls back to base64 (an unknown sysvar, data it cannot read). u64s
 * are numbers (written exactly), lamports per signature, the rent, reward totals and the slot
 * history's bits are strings.
 */
export function parseSysvar(address: string, data: Uint8Array): Record<string, unknown> | null {
  const read = SYSVARS[address];
  if (read === undefined) return null;
  try {
    return read(new Cursor(data));
  } catch {
    return null;
  }
}

class Cursor {
  at = 0;
  readonly #view: DataView;
  constructor(readonly data: Uint8Array) {
    this.#view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  #take(length: number): number {
    if (this.at + length > this.data.length) throw new RangeError('unexpected end of data');
    const start = this.at;
    this.at += length;
    return start;
  }
  u8(): number {
    return this.data[this.#take(1)]!;
  }
  u64(): bigint {
    return this.#view.getBigUint64(this.#take(8), true);
  }
  i64(): bigint {
    return this.#view.getBigInt64(this.#take(8), true);
  }
  f64(): number {
    return this.#view.getFloat64(this.#take(8), true);
  }
  u128(): bigint {
    const low = this.u64();
    return (this.u64() << 64n) | low;
  }
  hash(): string {
    const at = this.#take(32);
    return encodeBase58(this.data.subarray(at, at + 32));
  }
  /** A Vec's length, bounded by the data left. */
  length(itemBytes: number): number {
    const length = this.u64();
    if (length * BigInt(itemBytes) > BigInt(this.data.length - this.at)) throw new RangeError('a length past the data');
    return Number(length);
  }
}

const typed = (type: string, info: unknown) => ({ type, info });

const SYSVARS: Record<string, (cursor: Cursor) => Record<string, unknown>> = {
  SysvarC1ock11111111111111111111111111111111: (cursor) =>
    typed('clock', {
      slot: cursor.u64(),
      epochStartTimestamp: cursor.i64(),
      epoch: cursor.u64(),
      leaderScheduleEpoch: cursor.u64(),
      unixTimestamp: cursor.i64(),
    }),
  SysvarEpochSchedu1e111111111111111111111111: (cursor) =>
    typed('epochSchedule', {
      slotsPerEpoch: cursor.u64(),
      leaderScheduleSlotOffset: cursor.u64(),
      warmup: cursor.u8() === 1,
      firstNormalEpoch: cursor.u64(),
      firstNormalSlot: cursor.u64(),
    }),
  SysvarFees111111111111111111111111111111111: (cursor) => typed('fees', { feeCalculator: { lamportsPerSignature: cursor.u64().toString() } }),
  SysvarRecentB1ockHashes11111111111111111111: (cursor) =>
    typed(
      'recentBlockhashes',
      Array.from({ length: cursor.length(40) }, () => ({ blockhash: cursor.hash(), feeCalculator: { lamportsPerSignature: cursor.u64().toString() } })),
    ),
  // Agave 4.1 parses the rent as one rate: lamports per byte (the year's rate times the exemption threshold).
  SysvarRent111111111111111111111111111111111: (cursor) => {
    const perByteYear = cursor.u64();
    const threshold = cursor.f64();
    return typed('rent', { lamportsPerByte: BigInt(Math.round(Number(perByteYear) * threshold)).toString() });
  },
  SysvarRewards111111111111111111111111111111: (cursor) => typed('rewards', { validatorPointValue: cursor.f64() }),
  SysvarS1otHashes111111111111111111111111111: (cursor) =>
    typed(
      'slotHashes',
      Array.from({ length: cursor.length(40) }, () => ({ slot: cursor.u64(), hash: cursor.hash() })),
    ),
  SysvarS1otHistory11111111111111111111111111: (cursor) => {
    // BitVec<u64>: Option<Box<[u64]>> of the words, the bit count; then the next slot.
    const words: bigint[] = cursor.u8() === 1 ? Array.from({ length: cursor.length(8) }, () => cursor.u64()) : [];
    const bitCount = Number(cursor.u64());
    const nextSlot = cursor.u64();
    const bits = new Array<string>(bitCount);
    for (let index = 0; index < bitCount; index += 1) bits[index] = ((words[index >> 6] ?? 0n) >> BigInt(index & 63)) & 1n ? '1' : '0';
    return typed('slotHistory', { nextSlot, bits: bits.join('') });
  },
  SysvarStakeHistory1111111111111111111111111: (cursor) =>
    typed(
      'stakeHistory',
      Array.from({ length: cursor.length(32) }, () => ({
        epoch: cursor.u64(),
        stakeHistory: { effective: cursor.u64(), activating: cursor.u64(), deactivating: cursor.u64() },
      })),
    ),
  SysvarLastRestartS1ot1111111111111111111111: (cursor) => typed('lastRestartSlot', { lastRestartSlot: cursor.u64() }),
  SysvarEpochRewards1111111111111111111111111: (cursor) =>
    typed('epochRewards', {
      distributionStartingBlockHeight: cursor.u64(),
      numPartitions: cursor.u64(),
      parentBlockhash: cursor.hash(),
      totalPoints: cursor.u128().toString(),
      totalRewards: cursor.u64().toString(),
      distributedRewards: cursor.u64().toString(),
      active: cursor.u8() === 1,
    }),
};
