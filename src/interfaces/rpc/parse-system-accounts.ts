import { encodeBase58 } from '../../base/crypto/base58.ts';
import { nonceStateOf } from '../../domain/ledger/durable-nonce.ts';
import type { LedgerAccount } from '../../domain/ledger/engine.ts';
import { decodeLookupTable } from '../../domain/ledger/loaded-addresses.ts';

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
  const table = decodeLookupTable(account);
  if (!table) return null;
  const space = account.data.length;
  if (table.kind === 'uninitialized') return { program: 'address-lookup-table', parsed: { type: 'uninitialized' }, space };
  const info: Record<string, unknown> = {
    deactivationSlot: table.deactivationSlot.toString(),
    lastExtendedSlot: table.lastExtendedSlot.toString(),
    lastExtendedSlotStartIndex: table.lastExtendedSlotStartIndex,
    ...(table.authority ? { authority: table.authority.toBase58() } : {}),
    addresses: table.addresses.map((bytes) => encodeBase58(bytes)),
  };
  return { program: 'address-lookup-table', parsed: { type: 'lookupTable', info }, space };
}
