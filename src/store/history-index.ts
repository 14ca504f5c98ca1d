import { Collection } from '@msw/data';
import { z } from 'zod';
import type { TransactionErrorJson } from '../ledger/transaction-error.ts';

export interface HistoryEntry {
  signature: string;
  slot: number;
  blockTime: number;
  err: TransactionErrorJson | null;
  memo: string | null;
}

export interface HistoryQuery {
  /** Only entries that touched a token account of this mint. */
  mint?: string;
  /** Start strictly after (older than) this signature. */
  before?: string;
  /** Stop strictly before (newer than) this signature. */
  until?: string;
  /** Entries to skip, newest first. */
  offset?: number;
  limit: number;
}

/**
 * History by address, since the ledger keeps none. Each processed transaction is filed under every
 * address it touched and under the owners of the token accounts it touched; a second key per mint
 * serves the mint filter. Every transaction has its own slot, so each list is sorted by slot and a
 * page is found by binary search: a look-up never scans.
 */
const entrySchema = z.object({
  signature: z.string(),
  slot: z.number().int(),
  blockTime: z.number().int(),
  err: z.custom<TransactionErrorJson>().nullable(),
  memo: z.string().nullable(),
  /** Every key the entry is filed under: addresses, and `address|mint` pairs. */
  keys: z.array(z.string()),
});

export class HistoryIndex {
  /** The history entries themselves, as an @msw/data collection; the maps below index them. */
  readonly collection = new Collection({ schema: entrySchema });
  readonly #byKey = new Map<string, HistoryEntry[]>();
  readonly #slots = new Map<string, number>();

  /** Files `entry` under `addresses`, and under `address|mint` for each mint pair. Entries must arrive in slot order. */
  async add(entry: HistoryEntry, addresses: Iterable<string>, mintPairs: Iterable<[address: string, mint: string]> = []): Promise<void> {
    const keys = new Set(addresses);
    for (const [address, mint] of mintPairs) keys.add(mintKey(address, mint));
    const { signature, slot, blockTime, err, memo } = entry;
    const record = await this.collection.create({ signature, slot, blockTime, err, memo, keys: [...keys] });
    const stored: HistoryEntry = { signature: record.signature, slot: record.slot, blockTime: record.blockTime, err: record.err, memo: record.memo };
    this.#slots.set(signature, slot);
    for (const key of keys) {
      let list = this.#byKey.get(key);
      if (!list) this.#byKey.set(key, (list = []));
      list.push(stored);
    }
  }

  /** Entries for an address, newest first. */
  query(address: string, query: HistoryQuery): HistoryEntry[] {
    const list = this.#byKey.get(query.mint ? mintKey(address, query.mint) : address) ?? [];
    // Positions in the ascending list: `end` is exclusive, walking down to `start`.
    let end = list.length;
    let start = 0;
    if (query.before !== undefined) {
      const slot = this.#slots.get(query.before);
      end = slot === undefined ? 0 : lowerBound(list, slot);
    }
    if (query.until !== undefined) {
      const slot = this.#slots.get(query.until);
      if (slot !== undefined) start = lowerBound(list, slot + 1);
    }
    end -= query.offset ?? 0;
    const from = Math.max(start, end - query.limit);
    const page: HistoryEntry[] = [];
    for (let index = end - 1; index >= from; index -= 1) page.push(list[index]!);
    return page;
  }

  /** Every entry with the keys it is filed under, oldest first; `add(entry, keys)` files it again (state file). */
  dump(): { entry: HistoryEntry; keys: string[] }[] {
    return this.collection
      .all()
      .map(({ keys, signature, slot, blockTime, err, memo }) => ({ entry: { signature, slot, blockTime, err, memo }, keys: [...keys] }))
      .sort((a, b) => a.entry.slot - b.entry.slot);
  }

  count(address: string, mint?: string): number {
    return this.#byKey.get(mint ? mintKey(address, mint) : address)?.length ?? 0;
  }

  clear(): void {
    this.collection.clear();
    this.#byKey.clear();
    this.#slots.clear();
  }
}

function mintKey(address: string, mint: string): string {
  return `${address}|${mint}`;
}

function lowerBound(list: HistoryEntry[], slot: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]!.slot < slot) low = mid + 1;
    else high = mid;
  }
  return low;
}
