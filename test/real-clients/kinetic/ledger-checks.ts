/** The Kinetic tests' ledger checks (../ledger-checks.ts) and the instruction data their wire tables spell. */
import { PublicKey } from '@solana/web3.js';

export * from '../ledger-checks.ts';

/** TransferChecked's data: tag 12, the amount as u64 little-endian, the decimals. */
export function transferCheckedData(amount: bigint, decimals: number): string {
  const data = Buffer.alloc(10);
  data.writeUInt8(12, 0);
  data.writeBigUInt64LE(amount, 1);
  data.writeUInt8(decimals, 9);
  return data.toString('hex');
}

/** SetAuthority's data for the close authority: tag 6, authority type 3 (CloseAccount), option 1, the new authority. */
export function setCloseAuthorityData(authority: string): string {
  return `060301${Buffer.from(new PublicKey(authority).toBytes()).toString('hex')}`;
}
