/**
 * Base58 (Bitcoin alphabet), as Solana writes addresses and signatures: the same strings as `bs58`,
 * an order of magnitude faster. `bs58` (base-x) moves one byte or one character at a time through
 * every digit; here both sides move in large limbs (58^5 and 2^16 when encoding, 58^4 and 2^24
 * when decoding), all products staying below 2^53 so plain doubles are exact. The request path
 * converts addresses on nearly every call (a read's cache key, an owner, an echoed address), and
 * web3.js's `PublicKey#toBase58` and `new PublicKey(string)` cost more still (BENCHMARKS.md, "Measured reasons").
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

/**
 * Scratch space reused by every call (the codec is synchronous, so calls never overlap), grown
 * when a longer input comes: the common 32- and 64-byte conversions allocate nothing but their
 * result.
 */
let limbs = new Float64Array(32);
let codes = Buffer.allocUnsafeSlow(128);

function ensureScratch(limbCount: number, codeCount: number): void {
  if (limbs.length < limbCount) limbs = new Float64Array(limbCount);
  if (codes.length < codeCount) codes = Buffer.allocUnsafeSlow(codeCount);
}

export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  // log(256)/log(58) < 1.37 characters per byte; a limb holds five characters.
  const maxCodes = zeros + Math.ceil((bytes.length - zeros) * 1.37) + 1;
  ensureScratch(Math.ceil(maxCodes / ENCODE_DIGITS) + 1, maxCodes + ENCODE_DIGITS);
  // Little-endian limbs in base 58^5; the input enters two bytes at a time (one when odd).
  let count = 0;
  let at = zeros;
  if ((bytes.length - at) % 2 === 1) {
    limbs[count++] = bytes[at]!;
    at += 1;
  }
  for (; at < bytes.length; at += 2) {
    let carry = (bytes[at]! << 8) | bytes[at + 1]!;
    for (let index = 0; index < count; index += 1) {
      const value = limbs[index]! * 65536 + carry;
      carry = Math.floor(value / ENCODE_BASE);
      limbs[index] = value - carry * ENCODE_BASE;
    }
    while (carry > 0) {
      limbs[count++] = carry % ENCODE_BASE;
      carry = Math.floor(carry / ENCODE_BASE);
    }
  }
  // Characters most significant first: leading '1's for the zero bytes, then the limbs' digits.
  // A limb is below 2^30, so its digits are taken in small-integer arithmetic: `%` on a double is
  // a call to fmod, once per character.
  codes.fill(49 /* '1' */, 0, zeros);
  let length = zeros;
  for (let index = count - 1; index >= 0; index -= 1) {
    let limb = limbs[index]! | 0;
    // The top limb has no leading zero digits; the others are padded to five.
    const places = index === count - 1 ? digitCount(limb) : ENCODE_DIGITS;
    for (let place = places - 1; place >= 0; place -= 1) {
      const quotient = (limb / 58) | 0;
      codes[length + place] = ALPHABET_CODES[limb - quotient * 58]!;
      limb = quotient;
    }
    length += places;
  }
  // One native copy into a string (String.fromCharCode.apply takes the typed array element by element).
  return codes.toString('latin1', 0, length);
}

function digitCount(limb: number): number {
  let count = 0;
  for (; limb > 0; limb = (limb / 58) | 0) count += 1;
  return count;
}

/** The bytes of a base58 string, or null when it holds a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros += 1;
  // log(58)/log(2^24) < 0.25 limbs per character.
  ensureScratch(Math.ceil((text.length - zeros) / 4) + 2, 0);
  // Little-endian 24-bit limbs; the input enters four characters at a time (fewer for the head).
  let count = 0;
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
    for (let index = 0; index < count; index += 1) {
      const value = limbs[index]! * scale + carry;
      carry = Math.floor(value / LIMB);
      limbs[index] = value - carry * LIMB;
    }
    while (carry > 0) {
      limbs[count++] = carry % LIMB;
      carry = Math.floor(carry / LIMB);
    }
  }
  // Three bytes a limb, without the top limb's leading zero bytes.
  let significant = count * 3;
  if (count > 0) {
    const top = limbs[count - 1]!;
    significant -= top < 0x100 ? 2 : top < 0x10000 ? 1 : 0;
  }
  const bytes = new Uint8Array(zeros + significant);
  for (let index = 0, position = bytes.length - 1; position >= zeros; index += 1) {
    const limb = limbs[index]!;
    bytes[position--] = limb & 0xff;
    if (position >= zeros) bytes[position--] = (limb >>> 8) & 0xff;
    if (position >= zeros) bytes[position--] = limb >>> 16;
  }
  return bytes;
}
