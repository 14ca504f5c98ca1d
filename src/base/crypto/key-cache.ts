import { encodeBase58 } from './base58.ts';

// What the codec's callers remember so as not to encode twice: addresses of key fields in account
// data (by their bytes), and addresses, bytes and signature texts left on the objects they belong to.

/**
 * Addresses of key fields inside account data, by their bytes. Token accounts hold their mint's and
 * owner's keys, and the ledger decodes each token account of a relayed transfer three times (the
 * policy's read, pre- and post-balances), always with the same few mints and owners: a look-up by
 * the first four bytes and a 32-byte comparison costs a tenth of an encoding (BENCHMARKS.md, "Measured reasons"). Bounded:
 * cleared when full.
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
 * the ledger records it.
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
