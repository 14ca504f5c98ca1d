import { createRequire } from 'node:module';

/**
 * libsodium's ed25519, through sodium-native (an optional peer dependency, as ws takes bufferutil:
 * prebuilt binaries for the common platforms, ~18 MB of them, no install script; a user's project
 * that installs it gets it), or null when it is not installed or cannot load here; ed25519.ts then
 * uses node:crypto alone.
 *
 * Measured reason (2 vCPUs, Node 20, CPU time per call, best of 5 rounds of 4,000): verify 68 µs
 * against node:crypto's 130–140, sign 23 µs against 46. A relayed transfer verifies the client's
 * signature and signs as fee payer: that work was ~260 µs of a ~730 µs relayed transfer on LiteSVM.
 * Loading it costs ~30 ms once per process (most of it sodium-native's addon resolver).
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
