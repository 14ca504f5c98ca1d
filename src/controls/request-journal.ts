import { bufferedBodyOf } from '../http/buffered-bodies.ts';
import { clientAddressOf } from '../http/client-address.ts';
import { readCapped } from '../http/read-capped.ts';
import { knownRequestFacts, requestFacts } from '../http/request-facts.ts';
import { pathnameOf, searchOf } from '../http/request-url.ts';
import { contentTypeOf, requestTextOf, responseTextOf } from '../http/respond.ts';
import type { Exchange, FetchHandler } from '../core/create-fetch.ts';
import type { components } from '../generated/relay.ts';

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

/** Bodies past this size are journaled cut (request) or not at all (response). */
const MAX_JOURNALED_BYTES = 64 * 1024;
const MAX_TEXT_CHARS = 2048;

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

  /** An observer for the core: remembers which operation answered each request. */
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
type StoredBody = string | number | null;

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

const UTF8 = new TextDecoder();

/**
 * The request body as stored, when it is known without reading: the core remembers the text it
 * read, and the node server the bytes it buffered. Undefined when a body is there but unread.
 */
function knownRequestBody(request: Request): StoredBody | undefined {
  const buffered = bufferedBodyOf(request);
  const text = requestTextOf(request) ?? (buffered ? UTF8.decode(buffered) : undefined);
  if (text !== undefined) return text.length === 0 ? null : text.length > MAX_JOURNALED_BYTES ? text.length : text;
  return hasUnreadBody(request) ? undefined : null;
}

/**
 * A body nobody read yet. GET and HEAD have none, and asking a lightweight server Request for its
 * `body` turns it into a full one with a web stream: check the method first.
 */
function hasUnreadBody(request: Request): boolean {
  return request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null && !request.bodyUsed;
}

/**
 * Reads that are not journaled: the journals themselves, and what the web UI reads to show them
 * (its page, its files, and the overview, relays, wallets and events it fetches).
 */
function isJournalRead(pathname: string): boolean {
  return /^\/(__emulator\/(journal|overview|relays|wallets|events)(\/|$)|ui\/|tx\/|address\/|$)/i.test(pathname);
}

function isJson(contentType: string | null): boolean {
  return /[/+]json\b/i.test(contentType ?? '');
}

/** Responses worth journaling: JSON and plain text (not HTML, scripts or YAML). */
function isJournaledMedia(contentType: string | null): boolean {
  return isJson(contentType) || /^text\/plain\b/i.test(contentType ?? '');
}

async function readRequestBody(request: Request): Promise<StoredBody> {
  let bytes: Uint8Array | null;
  try {
    bytes = await readCapped(request.body, MAX_JOURNALED_BYTES);
  } catch {
    return null; // The client went away mid-body: nothing worth journaling.
  }
  if (bytes === null) return MAX_JOURNALED_BYTES + 1;
  // Any request body is tried as JSON: a malformed one is journaled as the text that was sent.
  return bytes.length === 0 ? null : UTF8.decode(bytes);
}

/** The journal's view of a body: parsed JSON, else text cut at 2 KiB, else a note of its size. */
function present(body: StoredBody, json: boolean): unknown {
  if (body === null) return null;
  if (typeof body === 'number') return `(body over ${MAX_JOURNALED_BYTES} bytes, not journaled)`;
  if (json) {
    try {
      // Deeply nested JSON stays text: serializing it back in the journal's answer would overflow the stack.
      if (nestingDepth(body) <= MAX_JOURNALED_DEPTH) return JSON.parse(body);
    } catch {
      // Not JSON after all: keep the text, which is what one wants to see when debugging.
    }
  }
  return body.length > MAX_TEXT_CHARS ? `${body.slice(0, MAX_TEXT_CHARS)}… (${body.length} characters)` : body;
}

const MAX_JOURNALED_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text (strings skipped). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ']' || char === '}') depth -= 1;
  }
  return deepest;
}

