import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { createEd25519Signer, verifyEd25519 } from './ed25519.ts';

describe('ed25519', () => {
  const keypair = Keypair.fromSeed(new Uint8Array(32).fill(7));
  const message = new TextEncoder().encode('relay');

  it('signs exactly as @solana/web3.js does, and verifies', () => {
    const tx = new Transaction({ feePayer: keypair.publicKey, blockhash: '11111111111111111111111111111111', lastValidBlockHeight: 0 });
    tx.add(SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: keypair.publicKey, lamports: 1 }));
    tx.sign(keypair);
    const signed = createEd25519Signer(keypair.secretKey).sign(tx.serializeMessage());
    expect(Buffer.from(signed)).toEqual(tx.signature);
    expect(verifyEd25519(keypair.publicKey.toBytes(), message, createEd25519Signer(keypair.secretKey).sign(message))).toBe(true);
  });

  it('rejects a flipped bit, a wrong key and malformed input without throwing', () => {
    const signature = createEd25519Signer(keypair.secretKey).sign(message);
    const flipped = signature.slice();
    flipped[5]! ^= 1;
    expect(verifyEd25519(keypair.publicKey.toBytes(), message, flipped)).toBe(false);
    expect(verifyEd25519(Keypair.generate().publicKey.toBytes(), message, signature)).toBe(false);
    expect(verifyEd25519(new Uint8Array(31), message, signature)).toBe(false);
    expect(verifyEd25519(keypair.publicKey.toBytes(), message, new Uint8Array(64))).toBe(false);
  });
});
