import { describe, expect, it } from 'vitest';
import { parseJsonExact } from './json-exact.ts';

describe('parseJsonExact', () => {
  it('reads integers past 2^53 exactly, and leaves the rest as JSON.parse reads it', () => {
    expect(parseJsonExact('[9223372036854775807, 18446744073709551616, -9223372036854775808]')).toEqual([
      9223372036854775807n,
      18446744073709551616n,
      -9223372036854775808n,
    ]);
    // Safe integers, decimals and exponents stay numbers; digits in strings (escaped quotes too) stay text.
    expect(parseJsonExact('{"a":1234567890123456,"b":1234567890123456.5,"c":1e30,"d":"12345678901234567890","e":"\\"99999999999999999999"}')).toEqual({
      a: 1234567890123456,
      b: 1234567890123456.5,
      c: 1e30,
      d: '12345678901234567890',
      e: '"99999999999999999999',
    });
    // Invalid JSON is refused as JSON.parse refuses it.
    expect(() => parseJsonExact('[99999999999999999999,')).toThrow(SyntaxError);
    // A leading zero is no JSON number, however long: refused, not read as 99999999999999999999n.
    expect(() => parseJsonExact('{"a": 0099999999999999999999}')).toThrow(SyntaxError);
    expect(() => parseJsonExact('[-0099999999999999999999]')).toThrow(SyntaxError);
  });
});
