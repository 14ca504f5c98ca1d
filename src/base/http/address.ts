import { PublicKey } from '@solana/web3.js';
import { decodeBase58 } from '../crypto/base58.ts';
import { rememberAddress } from '../crypto/key-cache.ts';
import { RelayError } from '../errors/relay-error.ts';

/**
 * Keys parsed lately, by their text. The same few addresses come back request after request, and a
 * PublicKey is immutable, so one is shared rather than decoded and built again. Bounded: cleared
 * when full.
 */
const parsed = new Map<string, PublicKey>();
const MAX_PARSED = 4096;

/** Parses a base58 public key, or throws 400 INVALID_ADDRESS naming the field. */
export function parseAddress(value: unknown, field: string): PublicKey {
  if (typeof value === 'string') {
    const known = parsed.get(value);
    if (known !== undefined) return known;
    const bytes = value.length >= 32 && value.length <= 44 ? decodeBase58(value) : null;
    // 32 decoded bytes make the text canonical: it is the key's address as addressOf() would write it.
    if (bytes?.length === 32) {
      if (parsed.size >= MAX_PARSED) parsed.clear();
      const key = rememberAddress(new PublicKey(bytes), value);
      parsed.set(value, key);
      return key;
    }
  }
  throw new RelayError('INVALID_ADDRESS', `${field} is not a valid base58 public key.`, {
    errors: [{ path: field, message: 'must be a base58 public key' }],
  });
}
