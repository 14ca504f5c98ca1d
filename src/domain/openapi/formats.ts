import type { Format } from 'ajv';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import { isStandardBase64 } from '../../base/crypto/base64.ts';

/**
 * The string formats openapi/relay.yaml defines beyond JSON Schema's own, for every ajv that reads
 * the contract (the request binder and the conformance kit's validator). A pattern can say
 * "base58" but not "32 bytes once decoded", and that is what makes a text a key.
 */
const CONTRACT_FORMATS: Record<string, Format> = {
  'solana-address': { type: 'string', validate: isSolanaAddress },
  'solana-signature': { type: 'string', validate: isSolanaSignature },
  // Standard padded base64, in one pass (a regex over 10 MiB of it overflows V8's backtrack stack).
  'base64-padded': { type: 'string', validate: isStandardBase64 },
};

/** A Solana address: base58 of exactly 32 bytes (44 characters at most). */
function isSolanaAddress(text: string): boolean {
  return decodesTo(text, 32, 44);
}

/** A Solana transaction signature: base58 of exactly 64 bytes (88 characters at most). */
export function isSolanaSignature(text: string): boolean {
  return decodesTo(text, 64, 88);
}

/** Adds the contract's formats to an ajv instance. */
export function addContractFormats(ajv: { addFormat(name: string, format: Format): unknown }): void {
  for (const [name, format] of Object.entries(CONTRACT_FORMATS)) ajv.addFormat(name, format);
}

function decodesTo(text: string, bytes: number, maxLength: number): boolean {
  return text.length >= bytes && text.length <= maxLength && decodeBase58(text)?.length === bytes;
}
