import { MAX_JOURNALED_BYTES, type StoredBody } from '../../base/http/exchange-bodies.ts';
import { nestsDeeperThan } from '../../base/codecs/json-shape.ts';

const MAX_TEXT_CHARS = 2048;

/** The journal's view of a body: parsed JSON, else text cut at 2 KiB, else a note of its size. */
export function present(body: StoredBody, json: boolean): unknown {
  if (body === null) return null;
  if (typeof body === 'number') return `(body over ${MAX_JOURNALED_BYTES} bytes, not journaled)`;
  if (json) {
    try {
      // Deeply nested JSON stays text: serializing it back in the journal's answer would overflow the stack.
      if (!nestsDeeperThan(body, MAX_JOURNALED_DEPTH)) return JSON.parse(body);
    } catch {
      // Not JSON after all: keep the text, which is what one wants to see when debugging.
    }
  }
  return body.length > MAX_TEXT_CHARS ? `${body.slice(0, MAX_TEXT_CHARS)}… (${body.length} characters)` : body;
}

const MAX_JOURNALED_DEPTH = 64;
