import { describe, expect, it } from 'vitest';
import { decodeState, encodeState } from './state-codec.ts';

describe('state codec', () => {
  it('round-trips bigints and bytes, nested, next to plain values', () => {
    const value = {
      slot: 12345678901234567890n,
      data: new Uint8Array([0, 1, 2, 255]),
      buffer: Buffer.from('hello'),
      list: [1n, 'two', null, { deep: new Uint8Array(0) }],
      text: '123',
    };
    const decoded = decodeState(encodeState(value)) as typeof value;
    expect(decoded.slot).toBe(12345678901234567890n);
    expect(decoded.data).toEqual(new Uint8Array([0, 1, 2, 255]));
    expect(Buffer.from(decoded.buffer).toString()).toBe('hello');
    expect(decoded.list).toEqual([1n, 'two', null, { deep: new Uint8Array(0) }]);
    expect(decoded.text).toBe('123');
  });

  it('leaves objects that merely look alike alone', () => {
    expect(decodeState(encodeState({ $bigint: '1', other: true }))).toEqual({ $bigint: '1', other: true });
  });
});
