/** The Altude client tests' ledger checks (../ledger-checks.ts) and the instruction data their wire tables spell. */
export * from '../ledger-checks.ts';

/** u64 little-endian, as hex. */
export function u64Hex(value: bigint): string {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64LE(value);
  return buffer.toString('hex');
}

/** u32 little-endian, as hex. */
export function u32Hex(value: number): string {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer.toString('hex');
}
