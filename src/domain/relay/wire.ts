import { PACKET_DATA_SIZE, type PublicKey, type VersionedTransaction } from '@solana/web3.js';
import { RelayError, isRelayError } from '../../base/errors/relay-error.ts';
import { sanitizeProblem, type SanitizeProblem } from '../../base/words/sanitize.ts';
import { base64Problem } from '../../base/crypto/base64.ts';
import { parseWire } from './wire-parse.ts';

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

/**
 * base64 → a sanitized transaction (rules W1–W4 of the fee-payer policy in openapi/relay.yaml):
 * 400 INVALID_BASE64 or INVALID_TRANSACTION, 422 TRANSACTION_TOO_LARGE or
 * VERSIONED_TRANSACTION_UNSUPPORTED. Whatever the bytes, it throws a RelayError or returns a
 * transaction every later check can index without bounds checks.
 */
export function decodeWireTransaction(base64: string): WireTransaction {
  const compact = base64.trim();
  const problem = base64Problem(compact);
  if (problem) throw new RelayError('INVALID_BASE64', `signedTransaction is not standard base64 (RFC 4648 §4, padded): ${problem}.`, { rule: 'W1' });
  const bytes = new Uint8Array(Buffer.from(compact, 'base64'));
  if (bytes.length > PACKET_DATA_SIZE) {
    throw new RelayError('TRANSACTION_TOO_LARGE', `The transaction is ${bytes.length} bytes; a Solana packet holds ${PACKET_DATA_SIZE}.`, { rule: 'W2' });
  }
  try {
    return decodeBytes(bytes);
  } catch (error) {
    if (isRelayError(error)) throw error;
    // (rule W3) The parser's refusals (WireFormatError), and any plain error web3.js's constructors throw.
    throw invalid(`signedTransaction is not a Solana transaction: ${(error as Error).message}`);
  }
}

function decodeBytes(bytes: Uint8Array): WireTransaction {
  const { tx, signaturesOffset, messageStart, messageEnd } = parseWire(bytes);
  sanitize(tx);
  // A transaction we would re-send must be exactly its parts: nothing may trail the message.
  if (messageEnd !== bytes.length) throw invalid('signedTransaction has trailing bytes after the message.');
  return { bytes, tx, messageBytes: bytes.subarray(messageStart), signaturesOffset, feePayer: tx.message.staticAccountKeys[0]! };
}

/** W4 (no address lookup tables: the relay must see every account), then Solana's own sanitization (src/base/words/sanitize.ts). */
function sanitize(tx: VersionedTransaction): void {
  const { message } = tx;
  if (message.version !== 'legacy' && message.addressTableLookups.length > 0) {
    const tables = message.addressTableLookups.map((lookup) => lookup.accountKey.toBase58()).join(', ');
    throw new RelayError(
      'VERSIONED_TRANSACTION_UNSUPPORTED',
      `Address lookup tables are not accepted (this transaction names ${tables}): the relay must see every account it signs for. ` +
        'Send the v0 transaction with static keys only, or a legacy transaction.',
      { rule: 'W4' },
    );
  }
  const problem = sanitizeProblem(tx);
  if (problem) throw invalid(sanitizeDetail(problem));
}

/** The relay's words for each sanitize problem. */
function sanitizeDetail(problem: SanitizeProblem): string {
  switch (problem.kind) {
    case 'signature-count':
      return `The transaction carries ${problem.signatures} signatures but its header requires ${problem.required}.`;
    case 'header':
      return 'The message header does not fit its account keys (the fee payer must be a writable signer).';
    case 'duplicate-key':
      return 'The message lists an account key twice.';
    case 'program-index':
      return `Instruction ${problem.instruction} names program index ${problem.programIndex}, which is ${
        problem.programIndex === 0 ? 'the fee payer' : 'out of range'
      }.`;
    case 'account-index':
      return `Instruction ${problem.instruction} names account index ${problem.accountIndex}, which is out of range.`;
  }
}

/** Rule W3: bytes that are not exactly one transaction. */
function invalid(detail: string): RelayError {
  return new RelayError('INVALID_TRANSACTION', detail, { rule: 'W3' });
}
