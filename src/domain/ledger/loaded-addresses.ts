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
export const LOOKUP_TABLE_META_SIZE = 56;
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

/** An address lookup table's account, decoded (solana-address-lookup-table-interface's layout). */
export type LookupTableAccount =
  | { kind: 'uninitialized' }
  | {
      kind: 'lookupTable';
      deactivationSlot: bigint;
      lastExtendedSlot: bigint;
      lastExtendedSlotStartIndex: number;
      /** Null once frozen. */
      authority: PublicKey | null;
      /** Each address's 32 bytes, in table order. */
      addresses: Uint8Array[];
    };

/**
 * The one reader of a lookup table's layout: a 56-byte header (u32 kind, u64 deactivation slot,
 * u64 last extended slot, u8 its start index, an optional authority, 2 bytes of padding), then
 * 32-byte addresses. Null for an account the program does not own or that is not of that shape.
 */
export function decodeLookupTable(account: LedgerAccount): LookupTableAccount | null {
  const { data } = account;
  if (!account.owner.equals(ADDRESS_LOOKUP_TABLE_PROGRAM) || data.length < LOOKUP_TABLE_META_SIZE || (data.length - LOOKUP_TABLE_META_SIZE) % 32 !== 0) {
    return null;
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const kind = view.getUint32(0, true);
  if (kind === 0) return { kind: 'uninitialized' };
  if (kind !== 1) return null;
  return {
    kind: 'lookupTable',
    deactivationSlot: view.getBigUint64(4, true),
    lastExtendedSlot: view.getBigUint64(12, true),
    lastExtendedSlotStartIndex: data[20]!,
    authority: data[21] === 1 ? new PublicKey(data.subarray(22, 54)) : null,
    addresses: Array.from({ length: (data.length - LOOKUP_TABLE_META_SIZE) / 32 }, (_, index) =>
      data.subarray(LOOKUP_TABLE_META_SIZE + index * 32, LOOKUP_TABLE_META_SIZE + (index + 1) * 32),
    ),
  };
}

/** A table's addresses usable at `slot`, or null when it is no table or no longer usable. */
function activeAddresses(account: LedgerAccount, slot: bigint): PublicKey[] | null {
  const table = decodeLookupTable(account);
  if (table?.kind !== 'lookupTable') return null;
  const { deactivationSlot } = table;
  if (deactivationSlot !== NOT_DEACTIVATED && deactivationSlot !== slot && slot - deactivationSlot >= BigInt(MAX_SLOT_HASHES)) return null;
  const usable = slot > table.lastExtendedSlot ? table.addresses.length : table.lastExtendedSlotStartIndex;
  return table.addresses.slice(0, usable).map((bytes) => new PublicKey(bytes));
}
