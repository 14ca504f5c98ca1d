import { createPublicKey } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { privateKeyOfSeed } from './ed25519.ts';

// web3.js's Keypair.fromSeed and a validating Keypair.fromSecretKey derive the public key with
// @noble/curves in JavaScript, and the first derivation in a process builds noble's base-point
// tables: ~95 ms of a cold start of 720 (the cluster's seeded identity and vote keys are derived at
// import, the fixture keys at the first emulator; issue 46, BENCHMARKS.md). node:crypto derives the
// same key in microseconds; web3.js then takes the pair as checked.

/** The ed25519 public key of a 32-byte seed (what Keypair.fromSeed's publicKey holds). */
export function publicKeyOfSeed(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new Error('bad seed size');
  const spki = createPublicKey(privateKeyOfSeed(seed)).export({ format: 'der', type: 'spki' });
  return new Uint8Array(spki.subarray(spki.length - 32));
}

/** Keypair.fromSeed, the key derived by node:crypto. */
export function keypairFromSeed(seed: Uint8Array): Keypair {
  const secretKey = new Uint8Array(64);
  secretKey.set(seed, 0);
  secretKey.set(publicKeyOfSeed(seed), 32);
  return Keypair.fromSecretKey(secretKey, { skipValidation: true });
}

/** Keypair.fromSecretKey with its check (the second half is the first half's public key), made by node:crypto; the same errors. */
export function keypairFromSecretKey(secretKey: Uint8Array): Keypair {
  if (secretKey.byteLength !== 64) throw new Error('bad secret key size');
  const derived = publicKeyOfSeed(secretKey.subarray(0, 32));
  for (let index = 0; index < 32; index += 1) if (derived[index] !== secretKey[32 + index]) throw new Error('provided secretKey is invalid');
  return Keypair.fromSecretKey(secretKey, { skipValidation: true });
}
