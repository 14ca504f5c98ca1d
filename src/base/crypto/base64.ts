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

const PAD = 0x3d;

function morselOf(byte: number): number {
  if (byte >= 65 && byte <= 90) return byte - 65;
  if (byte >= 97 && byte <= 122) return byte - 71;
  if (byte >= 48 && byte <= 57) return byte + 4;
  if (byte === 43) return 62;
  if (byte === 47) return 63;
  return -1;
}

/**
 * Standard base64 decoded as the Rust `base64` crate's STANDARD engine decodes it (canonical
 * padding, no trailing bits), or its error as `{:?}` prints it: `InvalidByte(3, 33)`,
 * `InvalidLength(5)`, `InvalidLastSymbol(2, 66)` or `InvalidPadding`, the index and byte those of
 * the UTF-8 text. The validator words a bad base64 parameter with it ("invalid base64 encoding: …").
 */
export function decodeBase64AsRust(text: string): { bytes: Uint8Array } | { error: string } {
  const input = Buffer.from(text, 'utf8');
  const rem = input.length % 4;
  // A trailing invalid byte (a newline, say) is named first, as the crate does.
  if (rem === 1) {
    const last = input[input.length - 1]!;
    if (last !== PAD && morselOf(last) < 0) return { error: `InvalidByte(${input.length - 1}, ${last})` };
  }
  const body = Math.max(0, input.length - rem - (rem === 0 ? 4 : 0));
  for (let at = 0; at < body; at += 1) {
    if (morselOf(input[at]!) < 0) return { error: `InvalidByte(${at}, ${input[at]})` };
  }
  const morsels: number[] = [];
  let padding = 0;
  let firstPad = 0;
  let lastSymbol = 0;
  for (let at = body; at < input.length; at += 1) {
    const byte = input[at]!;
    if (byte === PAD) {
      if (at - body < 2) return { error: `InvalidByte(${at}, ${byte})` };
      if (padding === 0) firstPad = at;
      padding += 1;
      continue;
    }
    if (padding > 0) return { error: `InvalidByte(${firstPad}, ${PAD})` };
    lastSymbol = byte;
    const morsel = morselOf(byte);
    if (morsel < 0) return { error: `InvalidByte(${at}, ${byte})` };
    morsels.push(morsel);
  }
  if (input.length > 0 && morsels.length < 2) return { error: `InvalidLength(${body + morsels.length})` };
  if ((padding + morsels.length) % 4 !== 0) return { error: 'InvalidPadding' };
  const whole = Math.floor((morsels.length * 6) / 8);
  const bits = morsels.reduce((sum, morsel, index) => sum | (morsel << (26 - 6 * index)), 0) >>> 0;
  // Two to four symbols make one to three whole bytes; bits past them must be zero.
  const mask = 0xffffffff >>> (whole * 8);
  if ((bits & mask) >>> 0 !== 0) return { error: `InvalidLastSymbol(${body + morsels.length - 1}, ${lastSymbol})` };
  return { bytes: new Uint8Array(Buffer.from(text, 'base64')) };
}
