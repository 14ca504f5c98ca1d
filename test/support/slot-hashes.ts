import { type Connection, PublicKey } from '@solana/web3.js';

const SLOT_HASHES = new PublicKey('SysvarS1otHashes111111111111111111111111111');

/** The SlotHashes sysvar's entries, newest first, as getAccountInfo shows the account. */
export async function slotHashes(connection: Connection): Promise<bigint[]> {
  const data = (await connection.getAccountInfo(SLOT_HASHES))!.data;
  const count = Number(data.readBigUInt64LE(0));
  return Array.from({ length: count }, (_, index) => data.readBigUInt64LE(8 + index * 40));
}
