/**
 * Standard base64 (RFC 4648 §4, padded), as the contract's base64 fields take it, and what is
 * wrong with a text that is not: the position and character, or the length, and what is expected.
 */

/**
 * Whether `text` is standard base64, padded: what `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`
 * says, checked in one pass. That pattern, run by V8 over an account of 10 MiB (13.4 million
 * characters), overflows the regex engine's backtrack stack (a RangeError, answered 500).
 */
export function isStandardBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  for (let at = 0; at < text.length - padding; at += 1) {
    const code = text.charCodeAt(at);
    const ok = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47;
    if (!ok) return false;
  }
  return true;
}

/** Null for standard base64 of at least one byte, else one sentence on what is wrong (after "… is not standard base64: "). */
export function base64Problem(text: string): string | null {
  if (text.length === 0) return 'it is empty';
  if (isStandardBase64(text)) return null;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (/[A-Za-z0-9+/]/.test(char)) continue;
    if (char === '=') {
      if (/^=+$/.test(text.slice(index)) && text.length % 4 === 0) break;
      return `"=" at position ${index} is padding, which only ends it (at most two, to a length that is a multiple of 4)`;
    }
    const shown =
      char === ' ' ? 'a space' : /\s/.test(char) ? `whitespace (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})` : `"${char}"`;
    const hint = char === '-' || char === '_' ? ' (that is base64url: use + for - and / for _)' : '';
    return `${shown} at position ${index} is not a base64 character${hint}; expected A-Z, a-z, 0-9, + and /, padded with =`;
  }
  return (
    `it is ${text.length} characters long; standard base64 comes in groups of 4, the last padded with = ` +
    `(${text.length % 4 === 1 ? 'one character too many, or three missing' : `add ${'='.repeat(4 - (text.length % 4))}`})`
  );
}
