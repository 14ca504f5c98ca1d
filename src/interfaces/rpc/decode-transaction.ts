import { PACKET_DATA_SIZE, VersionedTransaction } from '@solana/web3.js';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import { decodeBase64AsRust } from '../../base/crypto/base64.ts';
import { verifyEd25519 } from '../../base/crypto/ed25519.ts';
import { paramsError } from './json-rpc-error.ts';
import { sanitizeProblem } from '../../base/words/sanitize.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';

/** Largest encoded forms of a packet-sized transaction the validator accepts (agave rpc.rs). */
const MAX_BASE58_SIZE = 1683;
const MAX_BASE64_SIZE = 1644;
const TYPE = 'solana_transaction::versioned::VersionedTransaction';

export type BinaryEncoding = 'base58' | 'base64';

export interface DecodedTransaction {
  tx: VersionedTransaction;
  /** The canonical wire bytes (the validator re-serializes, dropping trailing bytes). */
  bytes: Uint8Array;
  /** Signature 0, base58: the transaction's id. */
  signature: string;
}

/**
 * A binary param's bytes, with the validator's -32602 messages (agave rpc.rs decode_and_deserialize):
 * too large encoded, not base58 or base64 (the base64 crate's own error, `InvalidByte(3, 33)`), too
 * large decoded. `type` is the Rust type named in them.
 */
export function decodeBinaryParam(encoded: string, encoding: BinaryEncoding, type: string = TYPE): Uint8Array {
  let raw: Uint8Array;
  if (encoding === 'base58') {
    if (encoded.length > MAX_BASE58_SIZE)
      throw paramsError(`base58 encoded ${type} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE58_SIZE}/${PACKET_DATA_SIZE})`);
    const decoded = decodeBase58(encoded);
    if (decoded === null) throw paramsError('invalid base58 encoding: InvalidCharacter');
    raw = decoded;
  } else {
    if (encoded.length > MAX_BASE64_SIZE)
      throw paramsError(`base64 encoded ${type} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${PACKET_DATA_SIZE})`);
    const decoded = decodeBase64AsRust(encoded);
    if ('error' in decoded) throw paramsError(`invalid base64 encoding: ${decoded.error}`);
    raw = decoded.bytes;
  }
  if (raw.length > PACKET_DATA_SIZE) throw paramsError(`decoded ${type} too large: ${raw.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
  return raw;
}

/** Decodes and sanitizes a transaction param, with the validator's -32602 messages. */
export function decodeTransaction(encoded: string, encoding: BinaryEncoding): DecodedTransaction {
  const raw = decodeBinaryParam(encoded, encoding);
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(raw);
  } catch (error) {
    throw paramsError(`failed to deserialize ${TYPE}: ${(error as Error).message}`);
  }
  sanitize(tx);
  const bytes = tx.serialize();
  return { tx, bytes, signature: encodeBase58(tx.signatures[0]!) };
}

/**
 * What `SanitizedTransaction::try_create` refuses (src/base/words/sanitize.ts), as -32602 `invalid
 * transaction: …` with the validator's words: a duplicate key is TransactionError::AccountLoadedTwice,
 * every other shape SanitizeFailure.
 */
function sanitize(tx: VersionedTransaction): void {
  const problem = sanitizeProblem(tx);
  if (problem === null) return;
  throw paramsError(
    problem.kind === 'duplicate-key'
      ? 'invalid transaction: Account loaded twice'
      : 'invalid transaction: Transaction failed to sanitize accounts offsets correctly',
  );
}

/** True when every required signature, the fee payer's included, verifies against the message. */
export function signaturesVerify(tx: VersionedTransaction): boolean {
  const message = tx.message.serialize();
  const keys = tx.message.staticAccountKeys;
  return tx.signatures.every((signature, index) => {
    const key = keys[index];
    return key !== undefined && verifyEd25519(key.toBytes(), message, signature);
  });
}
