import { clientAddressOf } from '../http/client-address.ts';
import { knownRequestFacts, requestFacts } from '../http/request-facts.ts';
import { pathnameOf, searchOf } from '../http/request-url.ts';
import { contentTypeOf, responseTextOf } from '../http/respond.ts';
import type { Exchange, FetchHandler } from '../http/exchange.ts';
import type { components } from '../generated/relay.ts';
import { isJournaledMedia, isJson, knownRequestBody, MAX_JOURNALED_BYTES, present, readRequestBody, UTF8, type StoredBody } from './journal-bodies.ts';

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
 * Every request with its response, oldest first, bounded (the oldest fall off). It wraps the
 * emulator's fetch, so the MSW mount and the server journal alike. Reads of the journal itself are
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

  /** An observer for the core: remembers which route (operationId) answered each request. */
  readonly observe = (exchange: Exchange): void => {
    requestFacts(exchange.request).operationId = exchange.operationId;
  };

  /**
   * Wraps a fetch so that every exchange through it is journaled. An entry keeps the texts it was
   * handed (the URL, bodies) in the ring's slots and is turned into a record only when the journal
   * is read. Not an async function: the common case, a response built by respond() to a request
   * whose body is known, is recorded without another await.
   */
  wrap(fetch: FetchHandler): FetchHandler {
    if (this.#maxEntries <= 0) return fetch;
    return (request) => {
      if ((request.method === 'GET' || request.method === 'HEAD') && isJournalRead(pathnameOf(request.url))) return fetch(request);
      const time = Date.now();
      const started = performance.now();
      return fetch(request).then((response) => this.#record(request, response, time, started));
    };
  }

  #record(request: Request, response: Response, time: number, started: number): Response | Promise<Response> {
    const durationMs = performance.now() - started;
    const contentType = contentTypeOf(response);
    let responseBody: StoredBody = null;
    if (isJournaledMedia(contentType)) {
      // Built by respond(): its text is known. Asking a server Response for its `body` would
      // turn it into a streamed one and cost the server its fast path for string bodies.
      const known = responseTextOf(response);
      if (known !== undefined) responseBody = known.length > MAX_JOURNALED_BYTES ? known.length : known;
      else if (response.body) return this.#recordReadingResponse(request, response, time, durationMs, contentType);
    }
    const requestBody = knownRequestBody(request);
    if (requestBody === undefined) {
      return readRequestBody(request).then((read) => {
        this.#push(request, response, { time, durationMs, requestBody: read, responseBody, responseJson: isJson(contentType) });
        return response;
      });
    }
    this.#push(request, response, { time, durationMs, requestBody, responseBody, responseJson: isJson(contentType) });
    return response;
  }

  /** A response not built by respond(): read its body once and answer with the same bytes. */
  async #recordReadingResponse(request: Request, response: Response, time: number, durationMs: number, contentType: string | null): Promise<Response> {
    const bytes = new Uint8Array(await response.arrayBuffer());
    const copy = new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
    const responseBody = bytes.length > MAX_JOURNALED_BYTES ? bytes.length : UTF8.decode(bytes);
    const known = knownRequestBody(request);
    const requestBody = known === undefined ? await readRequestBody(request) : known; // Not `??`: null means no body.
    this.#push(request, copy, { time, durationMs, requestBody, responseBody, responseJson: isJson(contentType) });
    return copy;
  }

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

  #push(request: Request, response: Response, taken: Taken): void {
    const slot = (this.#next - 1) % this.#maxEntries;
    this.#next += 1;
    const columns = this.#columns;
    columns.time[slot] = taken.time;
    columns.method[slot] = request.method;
    columns.url[slot] = request.url;
    columns.operationId[slot] = knownRequestFacts(request)?.operationId ?? null;
    columns.clientIp[slot] = clientAddressOf(request);
    columns.status[slot] = response.status;
    columns.durationMs[slot] = taken.durationMs;
    columns.requestBody[slot] = taken.requestBody;
    columns.responseBody[slot] = taken.responseBody;
    columns.responseJson[slot] = taken.responseJson;
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
    };
  }
}

/** A body as stored: its text, or its length when too large to journal, or null for none. */
/** What a recorder took from an exchange beyond the request and the response. */
interface Taken {
  /** Epoch milliseconds. */
  time: number;
  durationMs: number;
  /** Request bodies are always tried as JSON. */
  requestBody: StoredBody;
  responseBody: StoredBody;
  /** Whether the response's media type says JSON. */
  responseJson: boolean;
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
}

function emptyColumns(): Columns {
  return { time: [], method: [], url: [], operationId: [], clientIp: [], status: [], durationMs: [], requestBody: [], responseBody: [], responseJson: [] };
}

/**
 * Reads that are not journaled: the journals themselves, and what the web UI reads to show them
 * (its page, its files, and the overview, relays, wallets and events it fetches).
 */
function isJournalRead(pathname: string): boolean {
  return /^\/(__emulator\/(journal|overview|relays|wallets|events)(\/|$)|ui\/|tx\/|address\/|$)/i.test(pathname);
}
