import { RelayError } from '../errors/relay-error.ts';
import { JsonShapeScan, MAX_JSON_DEPTH, type JsonShapeBreak, type JsonShapeLimits } from '../codecs/json-shape.ts';
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
  /**
   * How many arrays, objects and values the body may hold, for a route that takes large bodies
   * (the state import): checked as the body arrives, so a hostile one is refused before the rest
   * is read or anything is parsed. Every body is held to serde_json's depth.
   */
  shape?: Omit<JsonShapeLimits, 'depth'>;
}

/**
 * Reads a JSON request body under a size cap: 413 past the cap (before reading when
 * Content-Length says so) or past the shape's bounds, 415 for a body that is not JSON, 400 for
 * invalid UTF-8 or JSON. Resolves to `undefined` when there is no body at all. A body the server
 * adapter buffered already (reading a body natively from node's IncomingMessage is several times
 * cheaper than pulling it through the web stream of a fetch Request) is parsed at once, without an
 * async function's frame.
 */
export function readJsonBody(request: Request, options: ReadBodyOptions): Promise<unknown> {
  const declared = Number(headerOf(request, options.context, 'content-length') ?? Number.NaN);
  const buffered = options.context.body;
  if (declared > options.maxBytes) {
    // Release the unread body without waiting: cancelling may not settle on every host (MSW's interceptor).
    if (!buffered) void request.body?.cancel().catch(() => undefined);
    return Promise.reject(tooLarge(options.maxBytes));
  }
  const scan = new JsonShapeScan({ depth: MAX_JSON_DEPTH, ...options.shape });
  if (buffered) {
    try {
      return Promise.resolve(parseJsonBytes(request, buffered, options, scan));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  // A declared length within the cap is read in one go, cheaper than pulling chunks, unless the
  // route bounds the shape: then each chunk is scanned as it arrives.
  if (request.headers.has('content-length') && !options.shape) {
    return request.arrayBuffer().then((bytes) => parseJsonBytes(request, new Uint8Array(bytes), options, scan));
  }
  return readBody(request, options, scan).then((bytes) => parseJsonBytes(request, bytes, options, null));
}

/** `scan`: the shape still to check (a body read whole), or null when it was checked as it arrived. */
function parseJsonBytes(request: Request, bytes: Uint8Array, options: ReadBodyOptions, scan: JsonShapeScan | null): unknown {
  if (bytes.length > options.maxBytes) throw tooLarge(options.maxBytes);
  if (bytes.length === 0) return undefined;
  const type = headerOf(request, options.context, 'content-type') ?? '';
  if (!isJsonType(type)) {
    throw RelayError.of('UNSUPPORTED_MEDIA_TYPE', { contentType: type, expected: 'application/json' });
  }
  const broken = scan?.bytes(bytes) ?? null;
  if (broken !== null) throw shapeRefusal(broken, options);
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw new RelayError('MALFORMED_JSON', 'The request body is not valid UTF-8.');
  }
  options.vars.bodyText = text;
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

/** The body's bytes, each chunk scanned as it arrives: refused at the first one past the size cap or the shape's bounds. */
async function readBody(request: Request, options: ReadBodyOptions, scan: JsonShapeScan): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  let broken: JsonShapeBreak | null = null;
  const bytes = await readCapped(request.body, options.maxBytes, (chunk) => (broken = scan.bytes(chunk)) === null);
  if (broken !== null) throw shapeRefusal(broken, options);
  if (bytes === null) throw tooLarge(options.maxBytes);
  return bytes;
}

function shapeRefusal(broken: JsonShapeBreak, options: ReadBodyOptions): RelayError {
  if (broken === 'depth') return new RelayError('MALFORMED_JSON', `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`);
  const held = broken === 'containers' ? `${options.shape?.containers} arrays and objects` : `${options.shape?.values} values`;
  return new RelayError('PAYLOAD_TOO_LARGE', `The request body holds more than ${held}, the most this route reads.`, { maxBytes: options.maxBytes });
}

function tooLarge(maxBytes: number): RelayError {
  return RelayError.of('PAYLOAD_TOO_LARGE', { maxBytes });
}
