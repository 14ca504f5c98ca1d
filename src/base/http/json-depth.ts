/**
 * serde_json's recursion limit, which Agave's RPC and Kora read JSON with: a body nested deeper
 * is refused before it is parsed (50 MB of nested arrays took JSON.parse 8–13 s and 4.4 GB).
 */
export const MAX_JSON_DEPTH = 128;

/**
 * Whether JSON text nests arrays and objects deeper than `limit` (strings skipped). It stops at
 * the first bracket past the limit, so a hostile body costs a scan of its head, not a parse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c) at += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}
