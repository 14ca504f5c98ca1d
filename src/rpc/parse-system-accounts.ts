import { PublicKey } from '@solana/web3.js';
import { encodeBase58 } from '../crypto/base58.ts';
import { nonceStateOf } from '../ledger/durable-nonce.ts';
import type { LedgerAccount } from '../ledger/engine.ts';
import { ADDRESS_LOOKUP_TABLE_PROGRAM } from '../ledger/loaded-addresses.ts';

const META_SIZE = 56;

/**
 * jsonParsed data of a nonce account (Agave's parse_nonce: program `nonce`, type `initialized`)
 * and of an address lookup table (parse_address_lookup_table: program `address-lookup-table`,
 * type `lookupTable`, slots as strings, `authority` absent once frozen), or null.
 */
export function parsedSystemAccount(account: LedgerAccount): Record<string, unknown> | null {
  const nonce = nonceStateOf(account);
  if (nonce) {
    return {
      program: 'nonce',
      parsed: {
        type: 'initialized',
        info: { authority: nonce.authority.toBase58(), blockhash: nonce.nonce, feeCalculator: { lamportsPerSignature: nonce.lamportsPerSignature.toString() } },
      },
      space: account.data.length,
    };
  }
  const { data } = account;
  if (!account.owner.equals(ADDRESS_LOOKUP_TABLE_PROGRAM) || data.length < META_SIZE || (data.length - META_SIZE) % 32 !== 0) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const kind = view.getUint32(0, true);
  if (kind === 0) return { program: 'address-lookup-table', parsed: { type: 'uninitialized' }, space: data.length };
  if (kind !== 1) return null;
  const info: Record<string, unknown> = {
    deactivationSlot: view.getBigUint64(4, true).toString(),
    lastExtendedSlot: view.getBigUint64(12, true).toString(),
    lastExtendedSlotStartIndex: data[20],
    ...(data[21] === 1 ? { authority: new PublicKey(data.subarray(22, 54)).toBase58() } : {}),
    addresses: Array.from({ length: (data.length - META_SIZE) / 32 }, (_, index) =>
      encodeBase58(data.subarray(META_SIZE + index * 32, META_SIZE + (index + 1) * 32)),
    ),
  };
  return { program: 'address-lookup-table', parsed: { type: 'lookupTable', info }, space: data.length };
}
