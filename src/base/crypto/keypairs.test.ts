import { randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { keypairFromSecretKey, keypairFromSeed, publicKeyOfSeed } from './keypairs.ts';

describe('key pairs derived by node:crypto', () => {
  it('are the key pairs web3.js derives, for many seeds', () => {
    for (let round = 0; round < 50; round += 1) {
      const seed = randomBytes(32);
      const expected = Keypair.fromSeed(seed);
      expect(publicKeyOfSeed(seed)).toEqual(expected.publicKey.toBytes());
      expect(keypairFromSeed(seed).secretKey).toEqual(expected.secretKey);
      expect(keypairFromSecretKey(expected.secretKey).publicKey.toBase58()).toBe(expected.publicKey.toBase58());
    }
  });

  it('refuse what web3.js refuses, with its messages', () => {
    const good = Keypair.generate().secretKey;
    const tampered = Uint8Array.from(good);
    tampered[40] = (tampered[40]! + 1) % 256;
    expect(() => Keypair.fromSecretKey(tampered)).toThrow('provided secretKey is invalid');
    expect(() => keypairFromSecretKey(tampered)).toThrow('provided secretKey is invalid');
    expect(() => keypairFromSecretKey(good.subarray(0, 63))).toThrow('bad secret key size');
    expect(() => keypairFromSeed(new Uint8Array(31))).toThrow('bad seed size');
  });
});
