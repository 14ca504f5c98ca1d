import { PublicKey } from '@solana/web3.js';
import { RelayError } from '../errors/relay-error.ts';

/** Parses a base58 public key, or throws 400 INVALID_ADDRESS naming the field. */
export function parseAddress(value: unknown, field: string): PublicKey {
  if (typeof value === 'string' && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) {
    try {
      return new PublicKey(value);
    } catch {
      // fall through
    }
  }
  throw new RelayError('INVALID_ADDRESS', `${field} is not a valid base58 public key.`, {
    errors: [{ path: field, message: 'must be a base58 public key' }],
  });
}
