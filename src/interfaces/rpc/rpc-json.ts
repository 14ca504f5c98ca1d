const MARK = '\u0000bigint:';
const MARKED = new RegExp(`"${MARK.replace('\u0000', '\\\\u0000')}(-?\\d+)"`, 'g');

/**
 * JSON.stringify that writes bigints as exact integer literals, as the validator writes u64 values
 * (`18446744073709551615`, lamports above 2^53). Clients decide how to read them: JSON.parse rounds
 * to a double, @solana/kit keeps a bigint.
 */
export function stringifyRpc(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${MARK}${item}` : item));
  return text.replace(MARKED, '$1');
}
