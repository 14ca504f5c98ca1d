import { RelayError } from '../../base/errors/relay-error.ts';

/**
 * Whole-token units (a decimal string such as "12.5") to base units, exactly: 400
 * VALIDATION_FAILED for anything that is not a non-negative decimal with at most `decimals` places.
 */
export function wholeToBaseUnits(amount: string, decimals: number, field: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  const fraction = match?.[2] ?? '';
  if (!match || fraction.length > decimals) {
    throw new RelayError('VALIDATION_FAILED', `${field} must be a number of tokens with at most ${decimals} decimal places.`, {
      errors: [{ path: field, message: `must be a decimal with at most ${decimals} places` }],
    });
  }
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'));
}
