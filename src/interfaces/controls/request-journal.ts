import { clientAddressOf } from '../../base/http/client-address.ts';
import { pathnameOf, searchOf } from '../../base/http/request-url.ts';
import { contentTypeOf } from '../../base/http/respond.ts';
import type { Exchange } from '../../base/http/exchange.ts';
import { isJson, type StoredBody } from '../../base/http/exchange-bodies.ts';
import type { components } from '../../generated/relay.ts';
import { present } from './journal-present.ts';

/** One request and the response it got, as the journal keeps it: the contract's EmulatorRequestRecord. */
export type RequestRecord = components['schemas']['EmulatorRequestRecord'];

export interface RequestFilter {
  method?: string;
  /** A path prefix, compared case-insensitively. */
  path?: string;
  status?: number;
  /** Only the newest `limit` matches (still oldest first). */
  limit?: number;
  /** Only requests one of these operations answered (looked at before anything is built). */
  operationIds?: ReadonlySet<string>;
  /** Only requests answered with at least this status. */
  minStatus?: number;
}

/**
 * Every request with its response, oldest first, bounded (the oldest fall off). It observes the
 * emulator's served fetch, so the MSW mount and the server journal alike. Reads of the journal itself are
 * left out, so that looking does not change what is seen.
 */
export class RequestJournal {
  /**
   * A ring of the newest `maxEntries` entries, one column per field: entry n is at slot
   * (n - 1) % maxEntries of every column. Recording fills slots, not objects, so the journal adds
   * no garbage per request and nothing for the collector to copy but the texts it keeps; the
   * columns grow to `maxEntries` as entries come, never further.
   */
  readonly #columns: Columns = emptyColumns();
  readonly #maxEntries: number;
  /** The number the next entry gets (its id is `req-<number>`). */
  #next = 1;

  constructor(options: { maxEntries: number }) {
    this.#maxEntries = options.maxEntries;
  }

  /** Whether an exchange of this request is journaled (and so should carry its bodies): reads of the journal are not. */
  readonly wants = (request: Request): boolean =>
    this.#maxEntries > 0 && !((request.method === 'GET' || request.method === 'HEAD') && isJournalRead(pathnameOf(request.url)));

  /**
   * The journal's observer (src/core/observe-exchanges.ts): an entry keeps the texts it was handed
   * (the URL, bodies) in the ring's slots, and is turned into a record only when the journal is read.
   */
  readonly record = (exchange: Exchange): void => {
    // The bodies are there exactly when `wants` asked for them (the emulator hands it to the observing pipe).
    if (exchange.requestBody === undefined || exchange.responseBody === undefined) return;
    const { request, response, context } = exchange;
    const slot = (this.#next - 1) % this.#maxEntries;
    this.#next += 1;
    const columns = this.#columns;
    columns.time[slot] = exchange.startedAt.getTime();
    columns.method[slot] = request.method;
    columns.url[slot] = request.url;
    columns.operationId[slot] = exchange.operationId;
    columns.clientIp[slot] = clientAddressOf(request, context);
    columns.status[slot] = response.status;
    columns.durationMs[slot] = exchange.durationMs;
    columns.requestBody[slot] = exchange.requestBody;
    columns.responseBody[slot] = exchange.responseBody;
    columns.responseJson[slot] = isJson(contentTypeOf(response));
    columns.problem[slot] = exchange.problem;
  };

  list(filter: RequestFilter = {}): RequestRecord[] {
    const method = filter.method?.toUpperCase();
    const path = filter.path?.toLowerCase();
    const columns = this.#columns;
    const matches: number[] = [];
    for (let seq = Math.max(1, this.#next - this.#maxEntries); seq < this.#next; seq += 1) {
      const slot = (seq - 1) % this.#maxEntries;
      if (method !== undefined && columns.method[slot] !== method) continue;
      if (path !== undefined && !pathnameOf(columns.url[slot]!).toLowerCase().startsWith(path)) continue;
      if (filter.status !== undefined && columns.status[slot] !== filter.status) continue;
      if (filter.minStatus !== undefined && columns.status[slot]! < filter.minStatus) continue;
      if (filter.operationIds !== undefined && !filter.operationIds.has(columns.operationId[slot] ?? '')) continue;
      matches.push(seq);
    }
    const chosen = filter.limit === undefined ? matches : matches.slice(Math.max(0, matches.length - filter.limit));
    return chosen.map((seq) => this.#recordAt(seq));
  }

  /** The entry with this id (`req-<n>`), while the journal still holds it. */
  get(id: string): RequestRecord | undefined {
    const seq = /^req-([1-9][0-9]{0,15})$/.exec(id)?.[1];
    if (seq === undefined) return undefined;
    const number = Number(seq);
    return number < this.#next && number >= Math.max(1, this.#next - this.#maxEntries) ? this.#recordAt(number) : undefined;
  }

  clear(): void {
    for (const column of Object.values(this.#columns)) column.length = 0;
    this.#next = 1;
  }

  /** The contract's record of entry `seq`, which must still be in the ring. */
  #recordAt(seq: number): RequestRecord {
    const slot = (seq - 1) % this.#maxEntries;
    const columns = this.#columns;
    const url = columns.url[slot]!;
    return {
      id: `req-${seq}`,
      time: new Date(columns.time[slot]!).toISOString(),
      method: columns.method[slot]!,
      path: pathnameOf(url),
      query: searchOf(url),
      operationId: columns.operationId[slot]!,
      clientIp: columns.clientIp[slot]!,
      status: columns.status[slot]!,
      durationMs: Math.round(columns.durationMs[slot]! * 1000) / 1000,
      requestBody: present(columns.requestBody[slot]!, true),
      responseBody: present(columns.responseBody[slot]!, columns.responseJson[slot]!),
      problem: columns.problem[slot] ?? null,
    };
  }
}

/**
 * The journal's columns: only what the exchange handed over (no object per entry or per body, no
 * id string), made into a {@link RequestRecord} when the journal is read. Numbers sit unboxed in
 * arrays that hold only numbers.
 */
interface Columns {
  time: number[];
  method: string[];
  /** The request's URL, as given: path and query are cut from it when read. */
  url: string[];
  operationId: (string | null)[];
  clientIp: (string | null)[];
  status: number[];
  durationMs: number[];
  requestBody: StoredBody[];
  responseBody: StoredBody[];
  responseJson: boolean[];
  problem: ({ code: string; rule: string | null } | null)[];
}

function emptyColumns(): Columns {
  return {
    time: [],
    method: [],
    url: [],
    operationId: [],
    clientIp: [],
    status: [],
    durationMs: [],
    requestBody: [],
    responseBody: [],
    responseJson: [],
    problem: [],
  };
}

/**
 * Reads that are not journaled: the journals themselves, and what the web UI reads to show them
 * (its page, its files, and the overview, relays, wallets and events it fetches).
 */
function isJournalRead(pathname: string): boolean {
  return /^\/(__emulator\/(journal|overview|relays|wallets|events)(\/|$)|ui\/|tx\/|address\/|$)/i.test(pathname);
}
