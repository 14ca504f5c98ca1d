import { PublicKey } from '@solana/web3.js';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import { invalidParam, invalidParams } from './json-rpc-error.ts';

/** JSON-RPC `params` as a positional array (Solana methods take no named params). */
export function positional(params: unknown, method: string, expected: { min: number; max: number }): unknown[] {
  const list = params === undefined || params === null ? [] : params;
  if (!Array.isArray(list)) throw invalidParams(`invalid type: map, expected a sequence for ${method}`);
  if (list.length < expected.min || list.length > expected.max) {
    const wanted = expected.min === expected.max ? `${expected.min}` : `${expected.min} to ${expected.max}`;
    throw invalidParams(`invalid length ${list.length}, expected ${wanted} element${expected.max === 1 ? '' : 's'} in sequence`);
  }
  return list;
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return `integer \`${value}\``;
  if (Array.isArray(value)) return 'sequence';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  return typeof value;
}

export function requireString(value: unknown, what = 'a string'): string {
  if (typeof value !== 'string') throw invalidParams(`invalid type: ${describeType(value)}, expected ${what}`);
  return value;
}

export function requireInteger(value: unknown, what = 'u64'): number {
  // An integer past 2^53, read exactly (json-exact.ts): a u64 or past it.
  if (typeof value === 'bigint') {
    // Past u64, serde_json reads the number as a float: said as it says it, below.
    if (value >= 0n && value < 2n ** 64n) return Number(value);
    value = Number(value);
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalidParams(`invalid type: ${describeType(value)}, expected ${what}`);
  // Past u64, serde_json reads the number as a float (x-emulator-choice: JSON.parse has no integers
  // above 2^53, so u64::MAX itself reads as 2^64 and is refused too).
  if (value >= 2 ** 64) {
    throw invalidParams(`invalid type: floating point \`${value.toLocaleString('en-US', { useGrouping: false })}.0\`, expected ${what}`);
  }
  return value;
}

/** A u64, exactly (an integer past 2^53 as sent): for an answer that names it (getBlockTime's "Block not available for slot …"). */
export function requireU64(value: unknown, what = 'u64'): bigint {
  if (typeof value === 'bigint') {
    requireInteger(value, what);
    return value;
  }
  return BigInt(requireInteger(value, what));
}

/** A base58 public key, or -32602 `Invalid param: …` as the validator words it. */
export function requirePubkey(value: unknown): PublicKey {
  return new PublicKey(requireHash(value));
}

/** 32 base58-encoded bytes (a public key or a blockhash), or -32602 `Invalid param: Invalid|WrongSize`. */
export function requireHash(value: unknown): string {
  const text = requireString(value);
  const bytes = decodeBase58(text);
  if (bytes === null) throw invalidParam('Invalid');
  if (bytes.length !== 32) throw invalidParam('WrongSize');
  return text;
}

/** A base58 signature (64 bytes). */
/** The longest base58 text of 64 bytes (solana-signature's MAX_BASE58_SIGNATURE_LEN). */
const MAX_BASE58_SIGNATURE_LENGTH = 88;

export function requireSignature(value: unknown): string {
  const text = requireString(value);
  // Signature::from_str's errors, as `{:?}` prints them: too long or not 64 bytes is WrongSize, not
  // base58 (or more than 64 bytes) Invalid.
  if (text.length > MAX_BASE58_SIGNATURE_LENGTH) throw invalidParam('WrongSize');
  const bytes = decodeBase58(text);
  if (bytes === null || bytes.length > 64) throw invalidParam('Invalid');
  if (bytes.length !== 64) throw invalidParam('WrongSize');
  return text;
}

/**
 * A config object (`{…}` or absent). Fields a method does not know are ignored, as the validator
 * ignores them (its config structs do not deny unknown fields): web3.js sends `encoding` to
 * getStakeMinimumDelegation, for one.
 */
export function configObject(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`invalid type: ${describeType(value)}, expected a config map`);
  return value as Record<string, unknown>;
}

export function optionalBoolean(config: Record<string, unknown>, field: string): boolean | undefined {
  const value = config[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidParams(`invalid type: ${describeType(value)}, expected a boolean for \`${field}\``);
  return value;
}

export function optionalInteger(config: Record<string, unknown>, field: string): number | undefined {
  const value = config[field];
  if (value === undefined || value === null) return undefined;
  return requireInteger(value, `u64 for \`${field}\``);
}

/** One of `variants`, or serde's "unknown variant" error. */
export function optionalVariant<T extends string>(config: Record<string, unknown>, field: string, variants: readonly T[]): T | undefined {
  const value = config[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !variants.includes(value as T)) {
    const shown = typeof value === 'string' ? value : describeType(value);
    throw invalidParams(`unknown variant \`${shown}\`, expected one of ${variants.map((variant) => `\`${variant}\``).join(', ')}`);
  }
  return value as T;
}
