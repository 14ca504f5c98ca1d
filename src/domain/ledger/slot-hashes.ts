import { createHash } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';

export const SLOT_HASHES_SYSVAR = new PublicKey('SysvarS1otHashes111111111111111111111111111');

/** The runtime's bound on SlotHashes (agave's `slot_hashes::MAX_ENTRIES`). */
export const MAX_SLOT_HASHES = 512;
const ENTRY = 40;
const SEED = createHash('sha256').update('relay-emulator slot hash').digest();

/**
 * The SlotHashes sysvar as the ledger moves: `(slot, hash)` for every slot up to the current one,
 * newest first, at most 512, in the runtime's layout (bincode: a u64 count, then each slot as a u64
 * and its 32-byte hash). The address lookup table program checks a table's `recent_slot` here and
 * counts a deactivated table's cool-down by it.
 *
 * Two choices, both x-emulator-choice:
 * - every slot the ledger passed is here, a warp's too (the ledger counts each warped slot as a
 *   block), and the current slot as well: the RPC answers `getSlot` with the current slot at every
 *   commitment (everything is final at once), so the slot a client takes for `createLookupTable`
 *   (web3.js's docs use `getSlot('finalized')`) must be a recent slot. A validator lists only
 *   ancestors, but its finalized slot is always one of them.
 * - a slot's hash is the SHA-256 of a fixed seed and the slot number: the same on every run and
 *   after a restart, independent of what ran in the slot (a bank hash would be).
 */
export class SlotHashes {
  readonly #data = Buffer.alloc(8 + MAX_SLOT_HASHES * ENTRY);
  #count = 0;
  #newest = -1n;

  /** Moves to `slot` (never back), adding every slot after the newest up to it; returns the sysvar's account data. */
  moveTo(slot: bigint): Uint8Array {
    if (slot > this.#newest) {
      const first = this.#newest < 0n || slot - this.#newest >= BigInt(MAX_SLOT_HASHES) ? slot - BigInt(MAX_SLOT_HASHES) + 1n : this.#newest + 1n;
      const start = first < 0n ? 0n : first;
      const added = Number(slot - start + 1n);
      const kept = Math.min(this.#count, MAX_SLOT_HASHES - added);
      this.#data.copyWithin(8 + added * ENTRY, 8, 8 + kept * ENTRY);
      for (let index = 0; index < added; index += 1) {
        const entrySlot = slot - BigInt(index);
        const at = 8 + index * ENTRY;
        this.#data.writeBigUInt64LE(entrySlot, at);
        slotHash(entrySlot).copy(this.#data, at + 8);
      }
      this.#count = kept + added;
      this.#newest = slot;
      this.#data.writeBigUInt64LE(BigInt(this.#count), 0);
    }
    return this.#data;
  }

  /** The entries, newest first (tests, and the engines that cannot write the sysvar to compare with). */
  entries(): { slot: bigint; hash: Uint8Array }[] {
    return Array.from({ length: this.#count }, (_, index) => ({
      slot: this.#data.readBigUInt64LE(8 + index * ENTRY),
      hash: this.#data.subarray(16 + index * ENTRY, 48 + index * ENTRY),
    }));
  }
}

/** The hash SlotHashes gives `slot` (see {@link SlotHashes}). */
export function slotHash(slot: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(slot);
  return createHash('sha256').update(SEED).update(bytes).digest();
}
