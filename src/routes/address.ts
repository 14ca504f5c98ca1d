import { PublicKey } from '@solana/web3.js';
import { decodeBase58, rememberAddress } from '../crypto/base58.ts';
import { RelayError } from '../errors/relay-error.ts';

/** Parses a base58 public key, or throws 400 INVALID_ADDRESS naming the field. */
export function parseAddress(value: unknown, field: string): PublicKey {
  const bytes = typeof value === 'string' && value.length >= 32 && value.length <= 44 ? decodeBase58(value) : null;
  // 32 decoded bytes make the text canonical: it is the key's address as addressOf() would write it.
  if (bytes?.length === 32) return rememberAddress(new PublicKey(bytes), value as string);
  throw new RelayError('INVALID_ADDRESS', `${field} is not a valid base58 public key.`, {
    errors: [{ path: field, message: 'must be a base58 public key' }],
  });
}
