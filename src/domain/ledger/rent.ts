/** Solana's default rent: 3480 lamports per byte-year, two years for exemption, 128 bytes of overhead. */
export function rentExemptMinimum(dataLength: number): bigint {
  return BigInt(128 + dataLength) * 3480n * 2n;
}

/** The Rent sysvar's parameters (solana-rent's `Rent`). */
export interface RentParameters {
  lamportsPerByteYear: bigint;
  exemptionThreshold: number;
}

export const DEFAULT_RENT: RentParameters = { lamportsPerByteYear: 3480n, exemptionThreshold: 2 };
const U64 = 2n ** 64n;

/** The Rent sysvar's account data (u64 lamports per byte-year, f64 exemption threshold, u8 burn percent), or the default. */
export function rentOf(data: Uint8Array | null): RentParameters {
  if (!data || data.length < 16) return DEFAULT_RENT;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { lamportsPerByteYear: view.getBigUint64(0, true), exemptionThreshold: view.getFloat64(8, true) };
}

/**
 * `Rent::minimum_balance` as the runtime computes it for any usize: `((128 + len) * lamports per
 * byte-year) as f64 * threshold`, the product wrapping at 2^64 as a release build's u64 does and
 * the float cast back saturating, so that an absurd length gets the validator's own answer (10 MiB
 * and one byte: 72,981,787,440), not an engine's panic or wrap. LiteSVM's sysvar holds mainnet's
 * current form (6,960 lamports a byte, threshold 1.0, SIMD-0194) and bankrun's the older one (3,480,
 * 2.0): the same minimum for every length below about 2.6 × 10^15 bytes, where the product wraps
 * at different points.
 */
export function minimumBalance(rent: RentParameters, dataLength: bigint): bigint {
  const bytes = ((128n + dataLength) * rent.lamportsPerByteYear) % U64;
  const lamports = Number(bytes) * rent.exemptionThreshold;
  if (!(lamports < 2 ** 64)) return U64 - 1n;
  return BigInt(Math.floor(lamports));
}
