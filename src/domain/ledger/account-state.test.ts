import { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { parseAddress } from './account-state.ts';

const ADDRESS = '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr';

describe('parseAddress (the test controls’ addresses)', () => {
  it('takes a base58 string, our PublicKey, and a PublicKey of another copy of web3.js by its base58', () => {
    expect(parseAddress(ADDRESS).toBase58()).toBe(ADDRESS);
    const ours = new PublicKey(ADDRESS);
    expect(parseAddress(ours)).toBe(ours);
    // An app's own web3.js (another version, another node_modules) makes keys that are not instances of ours.
    class OtherPublicKey {
      toBase58() {
        return ADDRESS;
      }
    }
    expect(parseAddress(new OtherPublicKey() as unknown as PublicKey).toBase58()).toBe(ADDRESS);
  });

  it('refuses what is not a canonical base58 key, naming the field', () => {
    expect(() => parseAddress('not-a-key', 'owner')).toThrow('owner "not-a-key" is not a base58 32-byte public key.');
    expect(() => parseAddress({ toBase58: () => 'nope' } as unknown as PublicKey)).toThrow('address "nope" is not a base58 32-byte public key.');
  });
});
