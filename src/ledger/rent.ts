/** Solana's default rent: 3480 lamports per byte-year, two years for exemption, 128 bytes of overhead. */
export function rentExemptMinimum(dataLength: number): bigint {
  return BigInt(128 + dataLength) * 3480n * 2n;
}
