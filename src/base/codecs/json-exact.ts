/**
 * JSON with its integers past 2^53 read exactly, as bigints (serde_json reads a u64 exactly;
 * JSON.parse rounds 9223372036854775807 to …776000). Only text that holds a number of 16 digits or
 * more takes this path; other text is JSON.parse's alone.
 */
export function parseJsonExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  // A string no request holds (a NUL and a random word), written as JSON's escape for it.
  const nonce = Math.random().toString(36).slice(2);
  const marker = `\u0000${nonce}:`;
  let out = '';
  let last = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at]!;
    if (char === '"') {
      // Past the string, its escapes included.
      for (at += 1; at < text.length && text[at] !== '"'; at += 1) if (text[at] === '\\') at += 1;
      continue;
    }
    if (char !== '-' && (char < '0' || char > '9')) continue;
    let end = at + 1;
    while (end < text.length && /[\d.eE+-]/.test(text[end]!)) end += 1;
    const token = text.slice(at, end);
    // A JSON integer only (no leading zero: `0099…` is no JSON, and JSON.parse refuses it below).
    if (/^-?[1-9]\d{15,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
      out += `${text.slice(last, at)}"\\u0000${nonce}:${token}"`;
      last = end;
    }
    at = end - 1;
  }
  out += text.slice(last);
  return JSON.parse(out, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value));
}
