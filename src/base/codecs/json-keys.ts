const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The first key that an object of JSON `text` names twice, or null. JSON.parse keeps the last of
 * them without a word; serde_json (what the Solana CLI and the validator read dumps with) refuses
 * a struct's field named twice. One pass over the text, strings skipped; a key is a string that
 * follows `{` or `,` inside an object, compared as JSON.parse reads it (escapes resolved). The
 * text is assumed to be JSON (parse it first).
 */
export function duplicateKey(text: string): string | null {
  /** One entry per open container: the keys of an object, null for an array. */
  const open: (Set<string> | null)[] = [];
  let previous = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      let end = at + 1;
      let escaped = false;
      for (; end < text.length; end += 1) {
        const inner = text.charCodeAt(end);
        if (inner === BACKSLASH) {
          escaped = true;
          end += 1;
        } else if (inner === QUOTE) break;
      }
      const keys = open.at(-1);
      if (keys && (previous === 0x7b || previous === 0x2c)) {
        const raw = text.slice(at + 1, end);
        const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (keys.has(key)) return key;
        keys.add(key);
      }
      previous = QUOTE;
      at = end;
    } else if (code === 0x7b) {
      open.push(new Set());
      previous = code;
    } else if (code === 0x5b) {
      open.push(null);
      previous = code;
    } else if (code === 0x7d || code === 0x5d) {
      open.pop();
      previous = code;
    } else if (code > 0x20) previous = code;
  }
  return null;
}
