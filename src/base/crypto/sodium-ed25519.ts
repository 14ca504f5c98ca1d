import { createRequire } from 'node:module';

/**
 * libsodium's ed25519, through sodium-native (an optional peer dependency, as ws takes bufferutil:
 * prebuilt binaries for the common platforms, ~18 MB of them, no install script; a user's project
 * that installs it gets it), or null when it is not installed or cannot load here; ed25519.ts then
 * uses node:crypto alone.
 *
 * Measured reason: libsodium verifies and signs in about half of node:crypto's time, and a relayed
 * transfer verifies the client's signature and signs as fee payer, a third of its CPU
 * (BENCHMARKS.md, "Measured reasons"). Loading it costs once per process.
 */
export interface SodiumEd25519 {
  crypto_sign_seed_keypair(publicKey: Uint8Array, secretKey: Uint8Array, seed: Uint8Array): void;
  crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void;
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

export const sodium: SodiumEd25519 | null = load();

function load(): SodiumEd25519 | null {
  try {
    return createRequire(import.meta.url)('sodium-native') as SodiumEd25519;
  } catch {
    return null;
  }
}
