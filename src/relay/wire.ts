import { PACKET_DATA_SIZE, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { RelayError } from '../errors/relay-error.ts';

/** A client's transaction, decoded once and kept with its raw bytes. */
export interface WireTransaction {
  /** The bytes as received; the fee-payer signature is written into a copy, never re-serialized. */
  bytes: Uint8Array;
  tx: VersionedTransaction;
  /** The signed message bytes, a view into `bytes`. */
  messageBytes: Uint8Array;
  /** Offset of signature 0 (the fee payer's) in `bytes`. */
  signaturesOffset: number;
  feePayer: PublicKey;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** base64 → transaction: 400 INVALID_BASE64 or INVALID_TRANSACTION, 422 TRANSACTION_TOO_LARGE. */
export function decodeWireTransaction(base64: string): WireTransaction {
  const compact = base64.trim();
  if (compact.length === 0 || !BASE64.test(compact)) {
    throw new RelayError('INVALID_BASE64', 'signedTransaction must be standard base64 (RFC 4648 §4, padded).');
  }
  const bytes = new Uint8Array(Buffer.from(compact, 'base64'));
  if (bytes.length > PACKET_DATA_SIZE) {
    throw new RelayError('TRANSACTION_TOO_LARGE', `The transaction is ${bytes.length} bytes; a Solana packet holds ${PACKET_DATA_SIZE}.`);
  }
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(bytes);
  } catch (error) {
    throw new RelayError('INVALID_TRANSACTION', `signedTransaction is not a Solana transaction: ${(error as Error).message}`);
  }
  const count = tx.signatures.length;
  const signaturesOffset = shortVecLength(count);
  const messageStart = signaturesOffset + 64 * count;
  const messageBytes = bytes.subarray(messageStart);
  const feePayer = tx.message.staticAccountKeys[0];
  if (!feePayer || count !== tx.message.header.numRequiredSignatures || messageStart >= bytes.length) {
    throw new RelayError('INVALID_TRANSACTION', 'The signature count does not match the message header.');
  }
  // deserialize() tolerates trailing bytes; a transaction we would re-send must round-trip exactly.
  if (messageBytes.length !== tx.message.serialize().length) {
    throw new RelayError('INVALID_TRANSACTION', 'signedTransaction has trailing bytes after the message.');
  }
  return { bytes, tx, messageBytes, signaturesOffset, feePayer };
}

/** Bytes that the compact-u16 length prefix of `value` takes. */
function shortVecLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : 3;
}
