/**
 * The cheatcodes' params, read as Surfpool reads them (serde's errors, and its own words for hex
 * data, after the `hex` crate's): u64s, hex data, a key or "null", a time-travel target.
 */
import { invalidParams, paramsError } from '../../rpc/json-rpc-error.ts';
import { describeType, requirePubkey } from '../../rpc/params.ts';

const U64_MAX = 2n ** 64n - 1n;

/** A u64 as serde reads one: a whole number, exact past 2^53 (the RPC reads those as bigints). */
export function u64(value: unknown, field: string): bigint {
  const whole = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : null;
  if (whole === null || whole < 0n || whole > U64_MAX) throw invalidParams(`invalid type: ${describeType(value)}, expected u64 for ${field}`);
  return whole;
}

/** Hex data, or Surfpool's error with the `hex` crate's words ("Odd number of digits", "Invalid character 'z' at position 0"). */
export function hex(value: unknown): Uint8Array {
  if (typeof value !== 'string') throw invalidParams(`invalid type: ${describeType(value)}, expected a string`);
  // The crate reads bytes: the UTF-8 text's length, and a byte past ASCII shown as the char of its value.
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length % 2 !== 0) throw paramsError('Invalid hex data provided: Odd number of digits');
  const bad = bytes.findIndex((byte) => !((byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)));
  if (bad >= 0) throw paramsError(`Invalid hex data provided: Invalid character ${rustCharDebug(bytes[bad]!)} at position ${bad}`);
  return new Uint8Array(Buffer.from(value, 'hex'));
}

/** A byte as Rust's `{:?}` prints it as a char: quoted, with its escapes. */
function rustCharDebug(byte: number): string {
  const escapes: Record<number, string> = { 0: '\\0', 9: '\\t', 10: '\\n', 13: '\\r', 39: "\\'", 92: '\\\\' };
  const shown = escapes[byte] ?? (byte < 32 || (byte >= 127 && byte < 160) ? `\\u{${byte.toString(16)}}` : String.fromCharCode(byte));
  return `'${shown}'`;
}

/** SetSomeAccount: a base58 address sets it, the string "null" clears it, JSON null or nothing leaves it. */
export function optionalKey(value: unknown, field: string, data: Buffer, at: number): void {
  if (value === undefined || value === null) return;
  if (value === 'null') {
    data.fill(0, at, at + 36);
    return;
  }
  if (typeof value !== 'string') throw invalidParams(`invalid type: ${describeType(value)}, expected a pubkey or "null" for ${field}`);
  data.writeUInt32LE(1, at);
  requirePubkey(value)
    .toBuffer()
    .copy(data, at + 4);
}

/** The last slot the ledger counts exactly (its slots are JavaScript numbers past the engine). */
export const MAX_SLOT = BigInt(Number.MAX_SAFE_INTEGER);
export const I64_MAX = 2n ** 63n - 1n;

export function timeTravelTarget(config: Record<string, unknown> | null, nowSeconds: bigint): { slot: bigint } | { epoch: bigint } | { milliseconds: bigint } {
  if (config === null) return { milliseconds: nowSeconds * 1000n + 3_600_000n };
  const keys = Object.keys(config);
  const whole = (value: unknown) => u64(value, keys[0] ?? 'config');
  if (keys.length === 1 && keys[0] === 'absoluteSlot') return { slot: whole(config.absoluteSlot) };
  if (keys.length === 1 && keys[0] === 'absoluteEpoch') return { epoch: whole(config.absoluteEpoch) };
  if (keys.length === 1 && keys[0] === 'absoluteTimestamp') return { milliseconds: whole(config.absoluteTimestamp) };
  throw invalidParams('unknown variant: expected one of `absoluteEpoch`, `absoluteSlot`, `absoluteTimestamp`');
}
