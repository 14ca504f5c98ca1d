import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { createPrivateKey, randomBytes } from 'node:crypto';
import { createEd25519Signer, signWithNodeCrypto, verifyEd25519, verifyWithNodeCrypto } from './ed25519.ts';
import { sodium } from './sodium-ed25519.ts';

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

  // libsodium (sodium-native, optional) is used when it loads: it must answer exactly as node:crypto.
  it.skipIf(sodium === null)('signs byte for byte as node:crypto, and verifies alike, with libsodium loaded', () => {
    for (let round = 0; round < 200; round += 1) {
      const pair = Keypair.generate();
      const body = randomBytes(round % 7 === 0 ? 0 : 1 + ((round * 37) % 1200));
      const keyObject = createPrivateKey({
        key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), pair.secretKey.subarray(0, 32)]),
        format: 'der',
        type: 'pkcs8',
      });
      const signature = createEd25519Signer(pair.secretKey).sign(body);
      expect(Buffer.from(signature)).toEqual(Buffer.from(signWithNodeCrypto(body, keyObject)));
      const key = pair.publicKey.toBytes();
      const tampered = [signature.slice(), key.slice()];
      tampered[0]![round % 64]! ^= 1 << (round % 8);
      tampered[1]![round % 32]! ^= 1 << (round % 8);
      for (const [candidateKey, candidateSignature] of [
        [key, signature],
        [key, tampered[0]!],
        [tampered[1]!, signature],
        [new Uint8Array(32), signature],
        [key, new Uint8Array(64)],
      ] as const) {
        expect(verifyEd25519(candidateKey, body, candidateSignature)).toBe(verifyWithNodeCrypto(candidateKey, body, candidateSignature));
      }
    }
  });

  it('signs as its key pair whatever the second half of the secret key holds (as node:crypto does)', () => {
    const secretKey = keypair.secretKey.slice();
    secretKey.fill(9, 32);
    expect(Buffer.from(createEd25519Signer(secretKey).sign(message))).toEqual(Buffer.from(createEd25519Signer(keypair.secretKey).sign(message)));
  });
});
