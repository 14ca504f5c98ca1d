import bs58 from 'bs58';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase58, encodeBase58 } from './base58.ts';
import { addressAt, addressOf, rememberAddress } from './key-cache.ts';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Bytes with leading zeros and 0xff runs more often than chance gives them: the codec's edges. */
const bytes = fc.tuple(fc.nat({ max: 4 }), fc.uint8Array({ maxLength: 80 }), fc.boolean()).map(([zeros, tail, saturate]) => {
  const out = new Uint8Array(zeros + tail.length);
  out.set(saturate ? tail.map(() => 0xff) : tail, zeros);
  return out;
});
const base58Text = fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 100 });

describe('base58', () => {
  it('encodes exactly as bs58 does, at every length and with leading zeros', () => {
    fc.assert(
      fc.property(bytes, (input) => {
        expect(encodeBase58(input)).toBe(bs58.encode(input));
      }),
      { numRuns: 2_000 },
    );
  });

  it('decodes exactly as bs58 does, and round-trips both ways', () => {
    fc.assert(
      fc.property(base58Text, (text) => {
        const decoded = decodeBase58(text);
        expect(decoded).toEqual(bs58.decode(text));
        expect(encodeBase58(decoded!)).toBe(text);
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(bytes, (input) => {
        expect(decodeBase58(encodeBase58(input))).toEqual(input);
      }),
      { numRuns: 1_000 },
    );
  });

  it('answers null for characters outside the alphabet, as bs58 refuses them', () => {
    for (const text of ['0', 'O', 'I', 'l', '985Xyisz+', 'abc def', 'é', '\u0000']) {
      expect(decodeBase58(text)).toBeNull();
      expect(bs58.decodeUnsafe(text)).toBeUndefined();
    }
  });

  it('knows the fixed points: empty, zero bytes, a Solana address', () => {
    expect(encodeBase58(new Uint8Array())).toBe('');
    expect(decodeBase58('')).toEqual(new Uint8Array());
    expect(encodeBase58(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    const address = '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr';
    expect(encodeBase58(decodeBase58(address)!)).toBe(address);
  });
});

describe('addressOf', () => {
  it('writes what PublicKey#toBase58 writes, and remembers it on the key', async () => {
    const { Keypair } = await import('@solana/web3.js');
    const key = Keypair.generate().publicKey;
    expect(addressOf(key)).toBe(key.toBase58());
    const bytes = key.toBytes();
    let reads = 0;
    const counted = {
      toBytes: () => {
        reads++;
        return bytes;
      },
    };
    addressOf(counted);
    addressOf(counted);
    expect(reads).toBe(1);
    expect(addressOf(rememberAddress({ toBytes: () => bytes }, 'given'))).toBe('given');
  });
});

describe('addressAt', () => {
  it('encodes the key at an offset exactly as encodeBase58, keys that share their first bytes included', () => {
    const keys = fc.uint8Array({ minLength: 32, maxLength: 32 });
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, fc.nat({ max: 7 })), { minLength: 1, maxLength: 40 }), fc.boolean(), (entries, sameHead) => {
        for (const [key, offset] of entries) {
          if (sameHead) key.set([1, 2, 3, 4]);
          const data = new Uint8Array(offset + 40).fill(0xaa);
          data.set(key, offset);
          expect(addressAt(data, offset)).toBe(encodeBase58(key));
          expect(addressAt(data, offset)).toBe(encodeBase58(key));
        }
      }),
    );
  });
});
