import { bufferedBodyOf } from '../http/buffered-bodies.ts';
import { readCapped } from '../http/read-capped.ts';
import { requestTextOf } from '../http/respond.ts';

// How the request journal keeps a body (text, or the size of one too large to keep) and shows it.

/** Bodies past this size are journaled cut (request) or not at all (response). */
export const MAX_JOURNALED_BYTES = 64 * 1024;
const MAX_TEXT_CHARS = 2048;

/** A body as the journal keeps it: its text, its size when over the limit, or null for none. */
export type StoredBody = string | number | null;

export const UTF8 = new TextDecoder();

/**
 * The request body as stored, when it is known without reading: the core remembers the text it
 * read, and the node server the bytes it buffered. Undefined when a body is there but unread.
 */
export function knownRequestBody(request: Request): StoredBody | undefined {
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

export function isJson(contentType: string | null): boolean {
  return /[/+]json\b/i.test(contentType ?? '');
}

/** Responses worth journaling: JSON and plain text (not HTML, scripts or YAML). */
export function isJournaledMedia(contentType: string | null): boolean {
  return isJson(contentType) || /^text\/plain\b/i.test(contentType ?? '');
}

export async function readRequestBody(request: Request): Promise<StoredBody> {
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
export function present(body: StoredBody, json: boolean): unknown {
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
