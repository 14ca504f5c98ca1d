import { describe, expect, it } from 'vitest';
import { decodeState, encodeState, encodeStateChunks, reviveState } from './state-codec.ts';

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

  it('writes in pieces exactly the text it writes at once', () => {
    const value = {
      parts: {
        records: [
          { a: 1n, b: new Uint8Array([9]) },
          { skip: undefined, keep: null },
        ],
        empty: [],
        nested: { list: [[1, [2, [3, [4]]]]] },
      },
      gone: undefined,
      list: [undefined, 'x', Buffer.from('hi'), new Date(0)],
      when: new Date(0),
    };
    const pieces = [...encodeStateChunks(value)];
    expect(pieces.length).toBeGreaterThan(10);
    expect(pieces.join('')).toBe(encodeState(value));
    expect([...encodeStateChunks(7n)].join('')).toBe(encodeState(7n));
  });
});

describe('reviveState', () => {
  it('revives a value parsed as plain JSON exactly as decodeState reads the text', () => {
    const value = { lamports: 5n, data: new Uint8Array([1, 2, 3]), list: [{ slot: 2n ** 70n }, 'x', null], nested: { plain: { $bigint: 1 } } };
    const text = encodeState(value);
    expect(reviveState(JSON.parse(text))).toEqual(decodeState(text));
    expect(reviveState(JSON.parse(text))).toEqual({ ...value, nested: { plain: { $bigint: 1 } } });
  });
});
