/**
 * Base58 (Bitcoin alphabet), as Solana writes addresses and signatures: the same strings as `bs58`,
 * an order of magnitude faster. `bs58` (base-x) moves one byte or one character at a time through
 * every digit; here both sides move in large limbs (58^5 and 2^16 when encoding, 58^4 and 2^24
 * when decoding), all products staying below 2^53 so plain doubles are exact. The request path
 * converts addresses on nearly every call (a read's cache key, an owner, an echoed address), and
 * web3.js's `PublicKey#toBase58` and `new PublicKey(string)` cost ~3–4 µs each.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0));
const DIGIT_OF = new Int8Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index += 1) DIGIT_OF[ALPHABET.charCodeAt(index)] = index;

/** 58^5: the largest power of 58 below 2^30, so `limb * 2^16 + carry` stays below 2^53. */
const ENCODE_BASE = 58 ** 5;
const ENCODE_DIGITS = 5;
/** 58^4 < 2^24, so `limb * 58^4 + carry` with 24-bit limbs stays below 2^53. */
const DECODE_GROUP = 4;
const LIMB = 2 ** 24;

export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  // Little-endian limbs in base 58^5; the input enters two bytes at a time (one when odd).
  const limbs: number[] = [];
  let at = zeros;
  if ((bytes.length - at) % 2 === 1) {
    limbs.push(bytes[at]!);
    at += 1;
  }
  for (; at < bytes.length; at += 2) {
    let carry = (bytes[at]! << 8) | bytes[at + 1]!;
    for (let index = 0; index < limbs.length; index += 1) {
      const value = limbs[index]! * 65536 + carry;
      carry = Math.floor(value / ENCODE_BASE);
      limbs[index] = value - carry * ENCODE_BASE;
    }
    while (carry > 0) {
      limbs.push(carry % ENCODE_BASE);
      carry = Math.floor(carry / ENCODE_BASE);
    }
  }
  // Characters most significant first: leading '1's for the zero bytes, then the limbs' digits.
  const codes: number[] = new Array(zeros).fill(49 /* '1' */);
  for (let index = limbs.length - 1; index >= 0; index -= 1) {
    let limb = limbs[index]!;
    const start = codes.length;
    // The top limb has no leading zero digits; the others are padded to five.
    const places = index === limbs.length - 1 ? digitCount(limb) : ENCODE_DIGITS;
    for (let place = places - 1; place >= 0; place -= 1) {
      codes[start + place] = ALPHABET_CODES[limb % 58]!;
      limb = Math.floor(limb / 58);
    }
  }
  return String.fromCharCode(...codes);
}

function digitCount(limb: number): number {
  let count = 0;
  for (; limb > 0; limb = Math.floor(limb / 58)) count += 1;
  return count;
}

/** The bytes of a base58 string, or null when it holds a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros += 1;
  // Little-endian 24-bit limbs; the input enters four characters at a time (fewer for the head).
  const limbs: number[] = [];
  let at = zeros;
  const head = (text.length - at) % DECODE_GROUP;
  for (let size = head === 0 ? DECODE_GROUP : head; at < text.length; size = DECODE_GROUP) {
    let carry = 0;
    let scale = 1;
    for (let end = at + size; at < end; at += 1) {
      const code = text.charCodeAt(at);
      const digit = code < 128 ? DIGIT_OF[code]! : -1;
      if (digit < 0) return null;
      carry = carry * 58 + digit;
      scale *= 58;
    }
    for (let index = 0; index < limbs.length; index += 1) {
      const value = limbs[index]! * scale + carry;
      carry = Math.floor(value / LIMB);
      limbs[index] = value - carry * LIMB;
    }
    while (carry > 0) {
      limbs.push(carry % LIMB);
      carry = Math.floor(carry / LIMB);
    }
  }
  const body: number[] = [];
  for (let index = 0; index < limbs.length; index += 1) {
    const limb = limbs[index]!;
    body.push(limb & 0xff, (limb >>> 8) & 0xff, limb >>> 16);
  }
  while (body.length > 0 && body[body.length - 1] === 0) body.pop();
  const bytes = new Uint8Array(zeros + body.length);
  for (let index = 0; index < body.length; index += 1) bytes[bytes.length - 1 - index] = body[index]!;
  return bytes;
}

/**
 * The base58 address of a public key: the same string as web3.js's `PublicKey#toBase58`, which
 * goes through bn.js and base-x and costs several times more.
 */
export function addressOf(key: { toBytes(): Uint8Array }): string {
  return encodeBase58(key.toBytes());
}
