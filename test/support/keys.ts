import { Keypair } from '@solana/web3.js';
import { createHash } from 'node:crypto';

let next = 0;

/**
 * A new keypair, the same on every run: the n-th call in a test file always gives the same key
 * (vitest evaluates this module afresh per file, and a file's tests run in order). Random keys made
 * runs differ: an associated token account's bump search, for one, costs compute units that vary
 * with the owner's key, so a client's tight compute limit passed or failed by chance.
 */
export function newKeypair(): Keypair {
  next += 1;
  return Keypair.fromSeed(createHash('sha256').update(`relay-emulator-test-key:${next}`).digest());
}
