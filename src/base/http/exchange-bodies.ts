import { readCapped } from './read-capped.ts';
import type { RequestContext, RequestVars } from './request-context.ts';

// How an exchange's bodies are kept for the request journal (text, or the size of one too large to keep) and shown.

/** Bodies past this size are journaled cut (request) or not at all (response). */
export const MAX_JOURNALED_BYTES = 64 * 1024;

/** A body as the journal keeps it: its text, its size when over the limit, or null for none. */
export type StoredBody = string | number | null;

export const UTF8 = new TextDecoder();

/**
 * The request body as stored, when it is known without reading: the core remembers the text it
 * read, and the node server the bytes it buffered. Undefined when a body is there but unread.
 */
export function knownRequestBody(request: Request, context: RequestContext, vars: RequestVars): StoredBody | undefined {
  const buffered = context.body;
  const text = vars.bodyText ?? (buffered ? UTF8.decode(buffered) : undefined);
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
