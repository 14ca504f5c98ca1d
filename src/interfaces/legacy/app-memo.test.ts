import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeAppMemo, encodeAppMemo } from './app-memo.ts';

describe('app memo', () => {
  it('lays out magic, version, type and index as the legacy SDK does', () => {
    // Version 1, type 0, index 1: byte 0 = magic 1 | version 1 << 2; byte 1 = index 1 << 2.
    const bytes = Buffer.from(encodeAppMemo({ index: 1 }), 'base64');
    expect(bytes.length).toBe(32);
    expect([...bytes.subarray(0, 4)]).toEqual([0b101, 0b100, 0, 0]);
    expect(bytes.subarray(4).every((byte) => byte === 0)).toBe(true);
    // Index 0xffff spans bytes 1 to 3; type 3 (peer-to-peer) sits in the top bits of byte 0.
    expect([...Buffer.from(encodeAppMemo({ index: 0xffff, type: 3 }), 'base64').subarray(0, 4)]).toEqual([0b0110_0101, 0b1111_1100, 0xff, 0b11]);
  });

  it('round-trips every index, type and version', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 31 }), fc.integer({ min: 0, max: 7 }), (index, type, version) => {
        expect(decodeAppMemo(encodeAppMemo({ index, type, version }))).toEqual({ index, type, version, foreignKey: '0'.repeat(58) });
      }),
    );
  });

  it('reads the foreign key: bits 26-255, as hex', () => {
    const bytes = Buffer.from(encodeAppMemo({ index: 0x1234, type: 2 }), 'base64');
    bytes[3]! |= 0b100; // bit 26: the foreign key's lowest
    bytes[31] = 0x80; // bit 255: its highest
    expect(decodeAppMemo(bytes.toString('base64'))).toEqual({ index: 0x1234, type: 2, version: 1, foreignKey: `2${'0'.repeat(56)}1` });
  });

  it('reads nothing from text that is not an app memo, and refuses out-of-range fields', () => {
    expect(decodeAppMemo('hello')).toBeNull();
    expect(decodeAppMemo(Buffer.alloc(32).toString('base64'))).toBeNull();
    expect(decodeAppMemo(Buffer.alloc(16, 1).toString('base64'))).toBeNull();
    expect(() => encodeAppMemo({ index: 0x10000 })).toThrow(RangeError);
    expect(() => encodeAppMemo({ index: 1, type: 32 })).toThrow(RangeError);
  });
});
