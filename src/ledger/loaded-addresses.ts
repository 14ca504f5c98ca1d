import { PublicKey, type VersionedMessage } from '@solana/web3.js';
import type { LedgerAccount } from './engine.ts';
import { MAX_SLOT_HASHES } from './slot-hashes.ts';

export const ADDRESS_LOOKUP_TABLE_PROGRAM = new PublicKey('AddressLookupTab1e1111111111111111111111111');

/** What a v0 transaction's lookups load, in the runtime's order: every table's writable addresses, then every table's read-only ones. */
export interface LoadedAddresses {
  writable: PublicKey[];
  readonly: PublicKey[];
}

export const NO_LOADED_ADDRESSES: LoadedAddresses = { writable: [], readonly: [] };

/** The table's header (solana-address-lookup-table-interface's LookupTableMeta); the addresses follow it. */
const META_SIZE = 56;
const NOT_DEACTIVATED = 0xffff_ffff_ffff_ffffn;

/**
 * The addresses a message's lookup tables load at `slot`, read from the tables' accounts as the
 * runtime reads them: a table must be owned by the lookup table program and not deactivated past
 * its cool-down (its deactivation slot still among the slot hashes), and only its active
 * addresses count (those extended in `slot` itself serve from the next slot). Null when a lookup
 * cannot be resolved: the engine refuses the transaction then, with the runtime's own error
 * (AddressLookupTableNotFound, InvalidAddressLookupTableOwner, InvalidAddressLookupTableData,
 * InvalidAddressLookupTableIndex), and nothing is loaded.
 */
export async function loadedAddressesOf(
  message: VersionedMessage,
  slot: bigint,
  read: (address: PublicKey) => Promise<LedgerAccount | null>,
): Promise<LoadedAddresses | null> {
  if (message.version === 'legacy' || message.addressTableLookups.length === 0) return NO_LOADED_ADDRESSES;
  const writable: PublicKey[] = [];
  const readonly: PublicKey[] = [];
  for (const lookup of message.addressTableLookups) {
    const table = await read(lookup.accountKey);
    const active = table && activeAddresses(table, slot);
    if (!active) return null;
    for (const [indexes, into] of [
      [lookup.writableIndexes, writable],
      [lookup.readonlyIndexes, readonly],
    ] as const) {
      for (const index of indexes) {
        if (index >= active.length) return null;
        into.push(active[index]!);
      }
    }
  }
  return { writable, readonly };
}

/** A table's addresses usable at `slot`, or null when it is no table or no longer usable. */
function activeAddresses(table: LedgerAccount, slot: bigint): PublicKey[] | null {
  const { data } = table;
  if (!table.owner.equals(ADDRESS_LOOKUP_TABLE_PROGRAM) || data.length < META_SIZE || (data.length - META_SIZE) % 32 !== 0) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== 1) return null;
  const deactivationSlot = view.getBigUint64(4, true);
  if (deactivationSlot !== NOT_DEACTIVATED && deactivationSlot !== slot && slot - deactivationSlot >= BigInt(MAX_SLOT_HASHES)) return null;
  const lastExtendedSlot = view.getBigUint64(12, true);
  const count = (data.length - META_SIZE) / 32;
  const usable = slot > lastExtendedSlot ? count : data[20]!;
  return Array.from({ length: usable }, (_, index) => new PublicKey(data.subarray(META_SIZE + index * 32, META_SIZE + (index + 1) * 32)));
}
