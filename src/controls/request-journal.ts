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
  readonly #entries: StoredEntry[] = [];
  readonly #maxEntries: number;
  #next = 1;

  constructor(options: { maxEntries: number }) {
    this.#maxEntries = options.maxEntries;
  }

  /** An observer for the core: remembers which operation answered each request. */
  readonly observe = (exchange: Exchange): void => {
    requestFacts(exchange.request).operationId = exchange.operationId;
  };

  /**
   * Wraps a fetch so that every exchange through it is journaled. Bodies are kept as text and
   * parsed when the journal is read, so the request path pays for one copy of each body only.
   */
  wrap(fetch: FetchHandler): FetchHandler {
    if (this.#maxEntries <= 0) return fetch;
    return async (request) => {
      const time = Date.now();
      const started = performance.now();
      const path = pathnameOf(request.url);
      if (isJournalRead(request.method, path)) return fetch(request);
      let response = await fetch(request);
      const durationMs = performance.now() - started;
      let responseBody: BodyText = null;
      const contentType = contentTypeOf(response);
      if (isJournaledMedia(contentType)) {
        // Built by respond(): its text is known. Asking a server Response for its `body` would
        // turn it into a streamed one and cost the server its fast path for string bodies.
        const known = responseTextOf(response);
        if (known !== undefined) {
          responseBody = known.length > MAX_JOURNALED_BYTES ? { tooLarge: known.length } : { text: known, json: isJson(contentType) };
        } else if (response.body) {
          // Not built by respond(): read the body once and answer with the same bytes.
          const bytes = new Uint8Array(await response.arrayBuffer());
          responseBody = bytes.length > MAX_JOURNALED_BYTES ? { tooLarge: bytes.length } : { text: new TextDecoder().decode(bytes), json: isJson(contentType) };
          response = new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
        }
      }
      // The core remembers the body text it read; a body it never read is still there to read.
      const buffered = bufferedBodyOf(request);
      const requestText = requestTextOf(request) ?? (buffered ? new TextDecoder().decode(buffered) : undefined);
      const requestBody: BodyText =
        requestText !== undefined
          ? requestText.length > MAX_JOURNALED_BYTES ? { tooLarge: requestText.length } : requestText.length === 0 ? null : { text: requestText, json: true }
          : hasUnreadBody(request) ? await readRequestBody(request) : null;
      this.#push({
        id: `req-${this.#next++}`,
        time,
        method: request.method,
        path,
        query: searchOf(request.url),
        operationId: knownRequestFacts(request)?.operationId ?? null,
        clientIp: clientAddressOf(request),
        status: response.status,
        durationMs: Math.round(durationMs * 1000) / 1000,
        requestBody,
        responseBody,
      });
      return response;
    };
  }

  list(filter: RequestFilter = {}): RequestRecord[] {
    const method = filter.method?.toUpperCase();
    const path = filter.path?.toLowerCase();
    const kept = this.#entries.length > this.#maxEntries ? this.#entries.slice(-this.#maxEntries) : this.#entries;
    const matches = kept.filter(
      (entry) =>
        (method === undefined || entry.method === method) &&
        (path === undefined || entry.path.toLowerCase().startsWith(path)) &&
        (filter.status === undefined || entry.status === filter.status),
    );
    return (filter.limit === undefined ? matches : matches.slice(Math.max(0, matches.length - filter.limit))).map((entry) => ({
      ...entry,
      time: new Date(entry.time).toISOString(),
      requestBody: present(entry.requestBody),
      responseBody: present(entry.responseBody),
    }));
  }

  clear(): void {
    this.#entries.length = 0;
    this.#next = 1;
  }

  #push(entry: StoredEntry): void {
    this.#entries.push(entry);
    // Trim in batches: cutting one entry off the front of a full journal on every request is O(n).
    if (this.#entries.length >= this.#maxEntries * 2) this.#entries.splice(0, this.#entries.length - this.#maxEntries);
  }
}

/** A body as stored: its text (and whether its media type says JSON), or its size when too large. */
type BodyText = { text: string; json: boolean } | { tooLarge: number } | null;
/** An entry as stored: bodies as text, the time as epoch milliseconds (both presented when read). */
type StoredEntry = Omit<RequestRecord, 'time' | 'requestBody' | 'responseBody'> & { time: number; requestBody: BodyText; responseBody: BodyText };

/**
 * A body nobody read yet. GET and HEAD have none, and asking a lightweight server Request for its
 * `body` turns it into a full one with a web stream: check the method first.
 */
function hasUnreadBody(request: Request): boolean {
  return request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null && !request.bodyUsed;
}

function isJournalRead(method: string, pathname: string): boolean {
  return (method === 'GET' || method === 'HEAD') && /^\/__emulator\/journal(\/|$)/i.test(pathname);
}

function isJson(contentType: string | null): boolean {
  return /[/+]json\b/i.test(contentType ?? '');
}

/** Responses worth journaling: JSON and plain text (not HTML, scripts or YAML). */
function isJournaledMedia(contentType: string | null): boolean {
  return isJson(contentType) || /^text\/plain\b/i.test(contentType ?? '');
}

async function readRequestBody(request: Request): Promise<BodyText> {
  let bytes: Uint8Array | null;
  try {
    bytes = await readCapped(request.body, MAX_JOURNALED_BYTES);
  } catch {
    return null; // The client went away mid-body: nothing worth journaling.
  }
  if (bytes === null) return { tooLarge: MAX_JOURNALED_BYTES + 1 };
  // Any request body is tried as JSON: a malformed one is journaled as the text that was sent.
  return bytes.length === 0 ? null : { text: new TextDecoder().decode(bytes), json: true };
}

/** The journal's view of a body: parsed JSON, else text cut at 2 KiB, else a note of its size. */
function present(body: BodyText): unknown {
  if (body === null) return null;
  if ('tooLarge' in body) return `(body over ${MAX_JOURNALED_BYTES} bytes, not journaled)`;
  if (body.json) {
    try {
      // Deeply nested JSON stays text: serializing it back in the journal's answer would overflow the stack.
      if (nestingDepth(body.text) <= MAX_JOURNALED_DEPTH) return JSON.parse(body.text);
    } catch {
      // Not JSON after all: keep the text, which is what one wants to see when debugging.
    }
  }
  return body.text.length > MAX_TEXT_CHARS ? `${body.text.slice(0, MAX_TEXT_CHARS)}… (${body.text.length} characters)` : body.text;
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

