import { describe, expect, it } from 'vitest';
import { toUiAmountString } from '../../domain/ledger/token-accounts.ts';
import { wholeToBaseUnits } from './token-units.ts';

describe('wholeToBaseUnits', () => {
  it('converts whole-token decimals to base units exactly', () => {
    expect(wholeToBaseUnits('1000', 5, 'amount')).toBe(100_000_000n);
    expect(wholeToBaseUnits('2.5', 5, 'amount')).toBe(250_000n);
    expect(wholeToBaseUnits('0.00001', 5, 'amount')).toBe(1n);
    expect(wholeToBaseUnits('123456789012345.123456', 6, 'amount')).toBe(123_456_789_012_345_123_456n);
    expect(toUiAmountString(wholeToBaseUnits('12.34', 6, 'amount'), 6)).toBe('12.34');
  });

  it('refuses more places than the mint has, signs and non-numbers', () => {
    for (const bad of ['0.000001', '-1', '1e3', 'abc', '', '1.']) {
      expect(() => wholeToBaseUnits(bad, 5, 'amount'), bad).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    }
  });
});
