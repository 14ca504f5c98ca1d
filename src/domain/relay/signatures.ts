import type { Ed25519Signer } from '../../base/crypto/ed25519.ts';
import { verifyEd25519 } from '../../base/crypto/ed25519.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { WireTransaction } from './wire.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';
import { addressOf, keyBytesOf, rememberSignatureText } from '../../base/crypto/key-cache.ts';

/**
 * Checks what the ledger won't (rules S1–S4 of the fee-payer policy in openapi/relay.yaml): the fee
 * payer is ours, the signature count is within the cap, and every other required signature is
 * present and verifies. The fee payer's own slot may be empty or anything; it is overwritten.
 * Expects a transaction sanitized by decodeWireTransaction (every signer has a static key).
 */
export function checkSignatures(wire: WireTransaction, feePayer: Uint8Array, options: { maxSignatures: number }): void {
  if (Buffer.compare(keyBytesOf(wire.feePayer), feePayer) !== 0) {
    throw new RelayError(
      'WRONG_FEE_PAYER',
      `The fee payer is ${addressOf(wire.feePayer)}; set it to ${encodeBase58(feePayer)} (FeePayer in GET /Transaction/config).`,
      { rule: 'S1' },
    );
  }
  const { tx, messageBytes } = wire;
  if (tx.signatures.length > options.maxSignatures) {
    throw new RelayError(
      'TOO_MANY_SIGNATURES',
      `The transaction requires ${tx.signatures.length} signatures; the relay accepts at most ${options.maxSignatures}.`,
      { rule: 'S2' },
    );
  }
  const keys = tx.message.staticAccountKeys;
  for (let index = 1; index < tx.signatures.length; index += 1) {
    const signature = tx.signatures[index]!;
    const signer = addressOf(keys[index]!);
    if (signature.every((byte) => byte === 0)) {
      throw new RelayError('SIGNATURE_MISSING', `The signature of ${signer} is missing; partially sign with every key except the fee payer.`, { rule: 'S3' });
    }
    if (!verifyEd25519(keyBytesOf(keys[index]!), messageBytes, signature)) {
      throw new RelayError('SIGNATURE_INVALID', `The signature of ${signer} does not verify against the message.`, { rule: 'S4' });
    }
  }
}

/** Signs as the fee payer. Returns the signed wire bytes (a copy; nothing is re-serialized) and the base58 signature. */
export function signAsFeePayer(wire: WireTransaction, signer: Ed25519Signer): { bytes: Uint8Array; signature: string } {
  const signature = signer.sign(wire.messageBytes);
  const bytes = wire.bytes.slice();
  bytes.set(signature, wire.signaturesOffset);
  wire.tx.signatures[0] = signature;
  // The ledger's record of the transaction writes the same signature again (transaction-record.ts).
  return { bytes, signature: rememberSignatureText(signature, encodeBase58(signature)) };
}
