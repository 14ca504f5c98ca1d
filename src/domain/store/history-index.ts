import type { TransactionErrorJson } from '../ledger/transaction-error.ts';
import type { ChangeReporter } from '../state/change-feed.ts';

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

/** A change to history, as reported to the change feed (the state file's journal). */
export type HistoryChange = { op: 'add'; entry: HistoryEntry; keys: string[] } | { op: 'clear' };

/** An entry with its place in history: entries are numbered in the order they were filed. */
interface Filed {
  entry: HistoryEntry;
  sequence: number;
  keys: string[];
}

/**
 * History by address, since the ledger keeps none. Each processed transaction is filed under every
 * address it touched and under the owners of the token accounts it touched; a second key per mint
 * serves the mint filter. Entries are filed in processing order, which is slot order and, within a
 * slot, the order the transactions ran; each gets the next sequence number, so every list is sorted
 * by it and a page is found by binary search, with several transactions in one slot as with one.
 * Purpose-built rather than an @msw/data collection, whose findMany scans and sorts every entry
 * for a page (BENCHMARKS.md, "Measured reasons").
 */
export class HistoryIndex {
  /** Every entry, in filing order (the state file's dump). */
  readonly #filed: Filed[] = [];
  readonly #byKey = new Map<string, Filed[]>();
  readonly #bySignature = new Map<string, Filed>();
  readonly #report: ChangeReporter;

  /** `report` hears every change (default: nobody). */
  constructor(report: ChangeReporter = () => undefined) {
    this.#report = report;
  }

  /** Files `entry` under `addresses`, and under `address|mint` for each mint pair. Entries must arrive in processing order. */
  add(entry: HistoryEntry, addresses: Iterable<string>, mintPairs: Iterable<[address: string, mint: string]> = []): void {
    const keys = new Set(addresses);
    for (const [address, mint] of mintPairs) keys.add(mintKey(address, mint));
    const filed = this.#file(entry, [...keys]);
    this.#report({ op: 'add', entry: filed.entry, keys: filed.keys } satisfies HistoryChange);
  }

  #file(entry: HistoryEntry, keys: string[]): Filed {
    const { signature, slot, blockTime, err, memo } = entry;
    const filed: Filed = { entry: { signature, slot, blockTime, err, memo }, sequence: this.#filed.length, keys };
    this.#filed.push(filed);
    this.#bySignature.set(signature, filed);
    for (const key of keys) {
      let list = this.#byKey.get(key);
      if (!list) this.#byKey.set(key, (list = []));
      list.push(filed);
    }
    return filed;
  }

  /** Entries for an address, newest first. */
  query(address: string, query: HistoryQuery): HistoryEntry[] {
    const list = this.#byKey.get(query.mint ? mintKey(address, query.mint) : address) ?? [];
    // Positions in the ascending list: `end` is exclusive, walking down to `start`.
    let end = list.length;
    let start = 0;
    if (query.before !== undefined) {
      const before = this.#bySignature.get(query.before);
      end = before === undefined ? 0 : lowerBound(list, before.sequence);
    }
    if (query.until !== undefined) {
      const until = this.#bySignature.get(query.until);
      if (until !== undefined) start = lowerBound(list, until.sequence + 1);
    }
    end -= query.offset ?? 0;
    const from = Math.max(start, end - query.limit);
    const page: HistoryEntry[] = [];
    for (let index = end - 1; index >= from; index -= 1) page.push(list[index]!.entry);
    return page;
  }

  /** The entries of one slot, in the order they ran (entries are filed in slot order: a binary search). */
  inSlot(slot: number): HistoryEntry[] {
    let low = 0;
    let high = this.#filed.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#filed[middle]!.entry.slot < slot) low = middle + 1;
      else high = middle;
    }
    const entries: HistoryEntry[] = [];
    for (let at = low; at < this.#filed.length && this.#filed[at]!.entry.slot === slot; at += 1) entries.push(this.#filed[at]!.entry);
    return entries;
  }

  /** Every entry with the keys it is filed under, oldest first; `add(entry, keys)` files it again (state file). */
  dump(): { entry: HistoryEntry; keys: string[] }[] {
    return this.#filed.map(({ entry, keys }) => ({ entry: { ...entry }, keys: [...keys] }));
  }

  count(address: string, mint?: string): number {
    return this.#byKey.get(mint ? mintKey(address, mint) : address)?.length ?? 0;
  }

  clear(): void {
    this.#empty();
    this.#report({ op: 'clear' } satisfies HistoryChange);
  }

  /** Redoes reported changes (journal replay), reporting nothing. An entry already filed (by signature) is not filed twice. */
  replay(changes: readonly unknown[]): void {
    for (const change of changes as HistoryChange[]) {
      if (change.op === 'clear') this.#empty();
      else if (!this.#bySignature.has(change.entry.signature)) {
        this.#file(change.entry, [...change.keys]);
      }
    }
  }

  #empty(): void {
    this.#filed.length = 0;
    this.#byKey.clear();
    this.#bySignature.clear();
  }
}

function mintKey(address: string, mint: string): string {
  return `${address}|${mint}`;
}

/** The first position whose sequence is at least `sequence`. */
function lowerBound(list: Filed[], sequence: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]!.sequence < sequence) low = mid + 1;
    else high = mid;
  }
  return low;
}
