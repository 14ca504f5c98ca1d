import { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { RelayError } from '../errors/relay-error.ts';
import { parseAddress } from './address.ts';

describe('parseAddress', () => {
  it('binds a canonical 32-byte address', () => {
    expect(parseAddress('985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr', 'accountAddress').toBase58()).toBe('985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr');
    expect(parseAddress('11111111111111111111111111111111', 'accountAddress').toBytes()).toEqual(new Uint8Array(32));
  });

  it('answers the same key for the same text, and a different key for different text', () => {
    const first = parseAddress('985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr', 'accountAddress');
    expect(parseAddress('985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr', 'walletAddress')).toBe(first);
    expect(parseAddress('11111111111111111111111111111111', 'walletAddress').equals(first)).toBe(false);
    // Many distinct addresses (past the cache's bound) still parse to their own keys.
    for (let index = 0; index < 5000; index += 1) {
      const bytes = new Uint8Array(32);
      new DataView(bytes.buffer).setUint32(0, index + 1);
      const key = new PublicKey(bytes);
      expect(parseAddress(key.toBase58(), 'accountAddress').equals(key)).toBe(true);
    }
    expect(parseAddress('985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr', 'accountAddress').toBase58()).toBe('985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr');
  });

  it.each([
    // web3.js's PublicKey accepted this one and padded it to 32 bytes.
    ['a 32-character string that decodes to 23 bytes', '2zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'],
    ['33 bytes', '1985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVzr'],
    ['a character outside the alphabet', '985XyiszbSJQ5wr33reHL7oMPNtzRgQExEqix4tijVz0'],
    ['too short', '985Xyisz'],
    ['not a string', 42],
  ])('refuses %s with INVALID_ADDRESS naming the field', (_, value) => {
    const error = (() => {
      try {
        parseAddress(value, 'accountAddress');
      } catch (thrown) {
        return thrown;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toBe('INVALID_ADDRESS');
    expect((error as RelayError).message).toContain('accountAddress');
  });
});
