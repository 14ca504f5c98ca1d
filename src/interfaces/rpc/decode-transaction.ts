import { PACKET_DATA_SIZE, VersionedTransaction } from '@solana/web3.js';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import { verifyEd25519 } from '../../base/crypto/ed25519.ts';
import { paramsError } from './json-rpc-error.ts';
import { sanitizeProblem } from '../../base/words/sanitize.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';

/** Largest encoded forms of a packet-sized transaction the validator accepts (agave rpc.rs). */
const MAX_BASE58_SIZE = 1683;
const MAX_BASE64_SIZE = 1644;
const TYPE = 'solana_transaction::versioned::VersionedTransaction';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type BinaryEncoding = 'base58' | 'base64';

export interface DecodedTransaction {
  tx: VersionedTransaction;
  /** The canonical wire bytes (the validator re-serializes, dropping trailing bytes). */
  bytes: Uint8Array;
  /** Signature 0, base58: the transaction's id. */
  signature: string;
}

/** Decodes and sanitizes a transaction param, with the validator's -32602 messages. */
export function decodeTransaction(encoded: string, encoding: BinaryEncoding): DecodedTransaction {
  let raw: Uint8Array;
  if (encoding === 'base58') {
    if (encoded.length > MAX_BASE58_SIZE)
      throw paramsError(`base58 encoded ${TYPE} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE58_SIZE}/${PACKET_DATA_SIZE})`);
    const decoded = decodeBase58(encoded);
    if (decoded === null) throw paramsError('invalid base58 encoding: InvalidCharacter');
    raw = decoded;
  } else {
    if (encoded.length > MAX_BASE64_SIZE)
      throw paramsError(`base64 encoded ${TYPE} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${PACKET_DATA_SIZE})`);
    if (!BASE64.test(encoded)) throw paramsError('invalid base64 encoding: InvalidByte');
    raw = new Uint8Array(Buffer.from(encoded, 'base64'));
  }
  if (raw.length > PACKET_DATA_SIZE) throw paramsError(`decoded ${TYPE} too large: ${raw.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
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
