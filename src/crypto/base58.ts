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

/**
 * Addresses of key fields inside account data, by their bytes. Token accounts hold their mint's and
 * owner's keys, and the ledger decodes each token account of a relayed transfer three times (the
 * policy's read, pre- and post-balances), always with the same few mints and owners: a look-up by
 * the first four bytes and a 32-byte comparison cost ~0.1 µs, an encoding ~1. Bounded: cleared when full.
 */
const keyAddresses = new Map<number, { bytes: Uint8Array; address: string }>();
const MAX_KEY_ADDRESSES = 4096;

/** The base58 address of the 32-byte key at `offset` of `data`. */
export function addressAt(data: Uint8Array, offset: number): string {
  const head = data[offset]! | (data[offset + 1]! << 8) | (data[offset + 2]! << 16) | (data[offset + 3]! << 24);
  const known = keyAddresses.get(head);
  if (known !== undefined && sameKey(known.bytes, data, offset)) return known.address;
  const bytes = data.slice(offset, offset + 32);
  const address = encodeBase58(bytes);
  if (keyAddresses.size >= MAX_KEY_ADDRESSES) keyAddresses.clear();
  keyAddresses.set(head, { bytes, address });
  return address;
}

function sameKey(bytes: Uint8Array, data: Uint8Array, offset: number): boolean {
  for (let index = 4; index < 32; index += 1) if (bytes[index] !== data[offset + index]) return false;
  return true;
}

/**
 * The base58 address of a public key: the same string as web3.js's `PublicKey#toBase58`, which
 * goes through bn.js and base-x and costs several times more. Remembered on the key (a PublicKey
 * never changes), so an account read twice, or a key parsed from its address, costs nothing more.
 */
export function addressOf(key: { toBytes(): Uint8Array }): string {
  const carrier = key as { [ADDRESS]?: string };
  return (carrier[ADDRESS] ??= encodeBase58(key.toBytes()));
}

/**
 * A key's 32 bytes, remembered on the key like its address: web3.js's `toBytes` goes through bn.js
 * on every call. Callers must not modify the array they get.
 */
export function keyBytesOf(key: { toBytes(): Uint8Array }): Uint8Array {
  const carrier = key as { [BYTES]?: Uint8Array };
  return (carrier[BYTES] ??= key.toBytes());
}

/** Remembers the address a key was parsed from, so that {@link addressOf} need not encode it. */
export function rememberAddress<K extends object>(key: K, address: string): K {
  (key as { [ADDRESS]?: string })[ADDRESS] = address;
  return key;
}

/**
 * Makes `key` remember its bytes and address: given, or what `like` (a key holding the same bytes,
 * which `key` wraps) remembers.
 */
export function rememberKey<K extends object>(key: K, like: object | { bytes: Uint8Array; address: string }): K {
  const target = key as { [ADDRESS]?: string; [BYTES]?: Uint8Array };
  if ('bytes' in like && 'address' in like) {
    target[BYTES] = like.bytes;
    target[ADDRESS] = like.address;
    return key;
  }
  const source = like as { [ADDRESS]?: string; [BYTES]?: Uint8Array };
  if (source[BYTES] !== undefined) target[BYTES] = source[BYTES];
  if (source[ADDRESS] !== undefined) target[ADDRESS] = source[ADDRESS];
  return key;
}

/**
 * The base58 text of a signature: what {@link rememberSignatureText} left on these bytes, or their
 * encoding. A relayed transaction's fee-payer signature is encoded when it is made and again when
 * the ledger records it (~2 µs each for 64 bytes).
 */
export function signatureText(signature: Uint8Array): string {
  return (signature as { [ADDRESS]?: string })[ADDRESS] ?? encodeBase58(signature);
}

/** Leaves a signature's text on its bytes, which must never change afterwards (the signer's fresh array); returns the text. */
export function rememberSignatureText(signature: Uint8Array, text: string): string {
  (signature as { [ADDRESS]?: string })[ADDRESS] = text;
  return text;
}

const ADDRESS = Symbol('relay-emulator.base58');
const BYTES = Symbol('relay-emulator.key-bytes');
