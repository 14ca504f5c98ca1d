import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

// Node's native ed25519 is an order of magnitude faster than the pure-JS implementation inside
// @solana/web3.js, and signature work dominates a relay call. Raw 32-byte keys are wrapped in the
// fixed DER prefixes of RFC 8410.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const publicKeyCache = new Map<string, KeyObject>();
const PUBLIC_KEY_CACHE_LIMIT = 10_000;

function publicKeyObject(raw: Uint8Array): KeyObject {
  const id = Buffer.from(raw).toString('base64');
  let key = publicKeyCache.get(id);
  if (!key) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    if (publicKeyCache.size >= PUBLIC_KEY_CACHE_LIMIT) publicKeyCache.clear();
    publicKeyCache.set(id, key);
  }
  return key;
}

/** Verifies an ed25519 signature. Malformed keys or signatures verify as false, never throw. */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    return verify(null, message, publicKeyObject(publicKey), signature);
  } catch {
    return false;
  }
}

/** A signer over a 64-byte Solana secret key (seed ‖ public key). */
export interface Ed25519Signer {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
  readonly keyObject: KeyObject;
}

export function createEd25519Signer(secretKey: Uint8Array): Ed25519Signer {
  if (secretKey.length !== 64) throw new TypeError('expected a 64-byte secret key');
  const keyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, secretKey.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = secretKey.slice(32);
  return {
    publicKey,
    keyObject,
    sign: (message) => new Uint8Array(sign(null, message, keyObject)),
  };
}
