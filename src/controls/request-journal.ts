import type { Exchange, FetchHandler } from '../core/create-fetch.ts';

/** One request and the response it got, as the journal keeps it. */
export interface RequestRecord {
  id: string;
  time: string;
  method: string;
  path: string;
  /** The query string, `?` included, or empty. */
  query: string;
  /** The operation that answered, or null when none matched (404) or for a CORS preflight. */
  operationId: string | null;
  /** The client's address (the server's X-Forwarded-For); null in process (MSW). */
  clientIp: string | null;
  status: number;
  durationMs: number;
  /** The JSON body, parsed; the text (cut at 2 KiB) when it is not JSON; null when there is none. */
  requestBody: unknown;
  /** The JSON body, parsed; text bodies as text (cut at 2 KiB); null for other media (HTML, scripts, YAML). */
  responseBody: unknown;
}

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
  readonly #entries: RequestRecord[] = [];
  readonly #operations = new WeakMap<Request, string | null>();
  readonly #maxEntries: number;
  #next = 1;

  constructor(options: { maxEntries: number }) {
    this.#maxEntries = options.maxEntries;
  }

  /** An observer for the core: remembers which operation answered each request. */
  readonly observe = (exchange: Exchange): void => {
    this.#operations.set(exchange.request, exchange.operationId);
  };

  /** Wraps a fetch so that every exchange through it is journaled. */
  wrap(fetch: FetchHandler): FetchHandler {
    return async (request) => {
      const time = new Date();
      const started = performance.now();
      const url = new URL(request.url);
      if (isJournalRead(request.method, url.pathname)) return fetch(request);
      const copy = request.body ? request.clone() : null;
      const response = await fetch(request);
      const durationMs = performance.now() - started;
      const [requestBody, responseBody] = await Promise.all([
        copy ? readBody(copy, { media: 'any' }) : null,
        readBody(response.clone(), { media: 'json-or-text' }),
      ]);
      this.#push({
        id: `req-${this.#next++}`,
        time: time.toISOString(),
        method: request.method,
        path: url.pathname,
        query: url.search,
        operationId: this.#operations.get(request) ?? null,
        clientIp: request.headers.get('x-forwarded-for'),
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
    const matches = this.#entries.filter(
      (entry) =>
        (method === undefined || entry.method === method) &&
        (path === undefined || entry.path.toLowerCase().startsWith(path)) &&
        (filter.status === undefined || entry.status === filter.status),
    );
    return filter.limit === undefined ? matches : matches.slice(Math.max(0, matches.length - filter.limit));
  }

  clear(): void {
    this.#entries.length = 0;
    this.#next = 1;
  }

  #push(entry: RequestRecord): void {
    this.#entries.push(entry);
    if (this.#entries.length > this.#maxEntries) this.#entries.splice(0, this.#entries.length - this.#maxEntries);
  }
}

function isJournalRead(method: string, pathname: string): boolean {
  return (method === 'GET' || method === 'HEAD') && /^\/__emulator\/journal(\/|$)/i.test(pathname);
}

async function readBody(message: Request | Response, options: { media: 'any' | 'json-or-text' }): Promise<unknown> {
  const type = (message.headers.get('content-type') ?? '').toLowerCase();
  const isJson = /[/+]json\b/.test(type);
  if (options.media === 'json-or-text' && !isJson && !type.startsWith('text/plain')) {
    // Never await cancel() on a tee'd copy: it settles only once the other branch is done too.
    void message.body?.cancel().catch(() => undefined);
    return null;
  }
  const bytes = await readCapped(message, MAX_JOURNALED_BYTES);
  if (bytes === null) return `(body over ${MAX_JOURNALED_BYTES} bytes, not journaled)`;
  if (bytes.length === 0) return null;
  const text = new TextDecoder().decode(bytes);
  if (isJson || options.media === 'any') {
    try {
      // Deeply nested JSON stays text: serializing it back for a journal read would overflow the stack.
      if (nestingDepth(text) <= MAX_JOURNALED_DEPTH) return JSON.parse(text);
    } catch {
      // Not JSON after all: keep the text, which is what one wants to see when debugging.
    }
  }
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}… (${bytes.length} bytes)` : text;
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

/** The body's bytes, or null when it is larger than `maxBytes`. */
async function readCapped(message: Request | Response, maxBytes: number): Promise<Uint8Array | null> {
  if (!message.body) return new Uint8Array();
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
  } catch {
    // The client went away mid-body; journal what arrived.
  }
  return Buffer.concat(chunks);
}
