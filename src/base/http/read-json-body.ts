import { RelayError } from '../errors/relay-error.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';
import { readCapped } from './read-capped.ts';
import type { RequestContext, RequestVars } from './request-context.ts';
import { headerOf } from './request-header.ts';

/** Shared: a fatal decoder keeps no state between whole-buffer decode() calls. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface ReadBodyOptions {
  /** Largest accepted body in bytes. */
  maxBytes: number;
  /** The request's context: the headers and body a server adapter read. */
  context: RequestContext;
  /** The request's store, where the body's text is kept for the journal. */
  vars: RequestVars;
}

/**
 * Reads a JSON request body under a size cap: 413 past the cap (before reading when
 * Content-Length says so), 415 for a body that is not JSON, 400 for invalid UTF-8 or JSON.
 * Resolves to `undefined` when there is no body at all. A body the server adapter buffered already
 * (reading a body natively from node's IncomingMessage is several times cheaper than pulling it
 * through the web stream of a fetch Request) is parsed at once, without an async function's frame.
 */
export function readJsonBody(request: Request, options: ReadBodyOptions): Promise<unknown> {
  const declared = Number(headerOf(request, options.context, 'content-length') ?? Number.NaN);
  const buffered = options.context.body;
  if (declared > options.maxBytes) {
    // Release the unread body without waiting: cancelling may not settle on every host (MSW's interceptor).
    if (!buffered) void request.body?.cancel().catch(() => undefined);
    return Promise.reject(tooLarge(options.maxBytes));
  }
  if (!buffered) return readBody(request, options.maxBytes).then((bytes) => parseJsonBytes(request, bytes, options));
  try {
    return Promise.resolve(parseJsonBytes(request, buffered, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

function parseJsonBytes(request: Request, bytes: Uint8Array, options: ReadBodyOptions): unknown {
  if (bytes.length > options.maxBytes) throw tooLarge(options.maxBytes);
  if (bytes.length === 0) return undefined;
  const type = headerOf(request, options.context, 'content-type') ?? '';
  if (!isJsonType(type)) {
    throw RelayError.of('UNSUPPORTED_MEDIA_TYPE', { contentType: type, expected: 'application/json' });
  }
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw new RelayError('MALFORMED_JSON', 'The request body is not valid UTF-8.');
  }
  options.vars.bodyText = text;
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new RelayError('MALFORMED_JSON', `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RelayError('MALFORMED_JSON', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

export function isJsonType(contentType: string): boolean {
  if (contentType === 'application/json') return true; // What nearly every client sends.
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence);
}

async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  // A declared length within the cap (checked by the caller) is read in one go: cheaper than pulling chunks.
  if (request.headers.has('content-length')) return new Uint8Array(await request.arrayBuffer());
  const bytes = await readCapped(request.body, maxBytes);
  if (bytes === null) throw tooLarge(maxBytes);
  return bytes;
}

function tooLarge(maxBytes: number): RelayError {
  return RelayError.of('PAYLOAD_TOO_LARGE', { maxBytes });
}
