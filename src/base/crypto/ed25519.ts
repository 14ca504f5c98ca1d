import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { sodium } from './sodium-ed25519.ts';

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

/**
 * Verifies an ed25519 signature. Malformed keys or signatures verify as false, never throw.
 *
 * libsodium first when it loaded (sodium-ed25519.ts: about twice as fast). It refuses more than
 * OpenSSL does (small-order or non-canonical keys and R points), never less, so its yes is final
 * and its no is asked again of node:crypto: the answers stay OpenSSL's, as they were, and only a
 * signature that fails pays for both.
 */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  if (sodium?.crypto_sign_verify_detached(signature, message, publicKey)) return true;
  return verifyWithNodeCrypto(publicKey, message, signature);
}

/** node:crypto (OpenSSL) alone: the fallback, and what the tests hold libsodium to. */
export function verifyWithNodeCrypto(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
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

/** node:crypto's private key of a 32-byte ed25519 seed (the first half of a Solana secret key). */
export function privateKeyOfSeed(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function createEd25519Signer(secretKey: Uint8Array): Ed25519Signer {
  if (secretKey.length !== 64) throw new TypeError('expected a 64-byte secret key');
  const keyObject = privateKeyOfSeed(secretKey.subarray(0, 32));
  const publicKey = secretKey.slice(32);
  return { publicKey, keyObject, sign: sodium ? sodiumSigner(secretKey.subarray(0, 32)) : (message) => signWithNodeCrypto(message, keyObject) };
}

/** node:crypto (OpenSSL) alone: the fallback, and what the tests hold libsodium to. */
export function signWithNodeCrypto(message: Uint8Array, keyObject: KeyObject): Uint8Array {
  return new Uint8Array(sign(null, message, keyObject));
}

/**
 * libsodium signs with the public half of its 64-byte secret key as given, OpenSSL with the one it
 * derives from the seed: the key pair is derived from the seed here too, so that both sign alike
 * whatever the second half of a Solana secret key holds. ed25519 is deterministic: the same
 * signatures, byte for byte.
 */
function sodiumSigner(seed: Uint8Array): (message: Uint8Array) => Uint8Array {
  const derivedPublic = new Uint8Array(32);
  const derivedSecret = new Uint8Array(64);
  sodium!.crypto_sign_seed_keypair(derivedPublic, derivedSecret, seed);
  return (message) => {
    const signature = new Uint8Array(64);
    sodium!.crypto_sign_detached(signature, message, derivedSecret);
    return signature;
  };
}
