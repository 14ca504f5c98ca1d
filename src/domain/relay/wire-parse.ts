import {
  Message,
  MessageV0,
  PublicKey,
  VersionedTransaction,
  type MessageAddressTableLookup,
  type MessageCompiledInstruction,
  type VersionedMessage,
} from '@solana/web3.js';
import { encodeBase58 } from '../../base/crypto/base58.ts';
import { rememberKey } from '../../base/crypto/key-cache.ts';

/**
 * A transaction's wire bytes parsed into web3.js's own objects (VersionedTransaction with a legacy
 * Message or a MessageV0), read by offset.
 *
 * Written by hand with a measured reason: `VersionedTransaction.deserialize` spreads the bytes into
 * a number array, builds every key through bn.js and base-x, and base58-encodes each legacy
 * instruction's data, a large share of a relayed transfer's CPU (BENCHMARKS.md, "Measured reasons"). This reads the same
 * layout by offset, shares the PublicKey of a key it parsed lately, and encodes with the project's
 * base58, in about a quarter of the time. The objects are web3.js's, built through their constructors, so
 * everything downstream (serialize, isAccountWritable, compiledInstructions) is web3.js's own.
 * `wire.test.ts` checks it against `VersionedTransaction.deserialize` on legacy and v0 messages.
 *
 * Stricter than web3.js on malformed input, as the validator is: bytes that end inside a field,
 * and a compact-u16 longer than three bytes, throw a {@link WireFormatError}.
 */
export interface ParsedWire {
  tx: VersionedTransaction;
  /** Offset of the first signature (after the signature count). */
  signaturesOffset: number;
  /** Offset of the message. */
  messageStart: number;
  /** Offset just past the message: the transaction's length, when nothing trails it. */
  messageEnd: number;
}

/** Malformed wire bytes (the caller words the refusal). */
export class WireFormatError extends Error {}

export function parseWire(bytes: Uint8Array): ParsedWire {
  const reader = new Reader(bytes);
  const count = reader.shortVec('signature count');
  const signaturesOffset = reader.offset;
  const signatures: Uint8Array[] = [];
  for (let index = 0; index < count; index += 1) signatures.push(reader.take(64, 'signatures').slice());
  const messageStart = reader.offset;
  const message = parseMessage(reader);
  if (signatures.length !== message.header.numRequiredSignatures) {
    throw new WireFormatError(`The transaction carries ${signatures.length} signatures but its header requires ${message.header.numRequiredSignatures}.`);
  }
  return { tx: new VersionedTransaction(message, signatures), signaturesOffset, messageStart, messageEnd: reader.offset };
}

function parseMessage(reader: Reader): VersionedMessage {
  const prefix = reader.byte('message');
  const versioned = (prefix & 0x80) !== 0;
  if (versioned && (prefix & 0x7f) !== 0) throw new WireFormatError(`Transaction message version ${prefix & 0x7f} deserialization is not supported`);
  const header = versioned
    ? { numRequiredSignatures: reader.byte('header'), numReadonlySignedAccounts: reader.byte('header'), numReadonlyUnsignedAccounts: reader.byte('header') }
    : { numRequiredSignatures: prefix, numReadonlySignedAccounts: reader.byte('header'), numReadonlyUnsignedAccounts: reader.byte('header') };
  const keyCount = reader.shortVec('account key count');
  const keys: PublicKey[] = [];
  for (let index = 0; index < keyCount; index += 1) keys.push(reader.key('account keys'));
  const recentBlockhash = encodeBase58(reader.take(32, 'recent blockhash'));
  const instructionCount = reader.shortVec('instruction count');
  const instructions: MessageCompiledInstruction[] = [];
  for (let index = 0; index < instructionCount; index += 1) {
    const programIdIndex = reader.byte('instructions');
    const accountKeyIndexes = [...reader.take(reader.shortVec('instructions'), 'instructions')];
    const data = reader.take(reader.shortVec('instructions'), 'instruction data').slice();
    instructions.push({ programIdIndex, accountKeyIndexes, data });
  }
  if (!versioned) {
    const message = new Message({
      header,
      accountKeys: keys,
      recentBlockhash,
      instructions: instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accountKeyIndexes, data: encodeBase58(ix.data) })),
    });
    // Message wraps each key in a new PublicKey: carry over what the shared one remembers.
    for (const [index, key] of message.accountKeys.entries()) rememberKey(key, keys[index]!);
    // Its compiledInstructions getter decodes every instruction's base58 data again on each call,
    // and the wire check, the policy, the fee and the memo each call it (BENCHMARKS.md, "Measured
    // reasons"): the instructions parsed here are what it would build (its data as Buffers, as
    // web3.js's bs58 gives them).
    const compiled = instructions.map(({ programIdIndex, accountKeyIndexes, data }) => ({
      programIdIndex,
      accountKeyIndexes,
      data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    }));
    Object.defineProperty(message, 'compiledInstructions', { value: compiled });
    return message;
  }
  const lookupCount = reader.shortVec('address table lookups');
  const addressTableLookups: MessageAddressTableLookup[] = [];
  for (let index = 0; index < lookupCount; index += 1) {
    const accountKey = reader.key('address table lookups');
    const writableIndexes = [...reader.take(reader.shortVec('address table lookups'), 'address table lookups')];
    const readonlyIndexes = [...reader.take(reader.shortVec('address table lookups'), 'address table lookups')];
    addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes });
  }
  return new MessageV0({ header, staticAccountKeys: keys, recentBlockhash, compiledInstructions: instructions, addressTableLookups });
}

/**
 * Keys parsed lately, by their bytes: the same few keys (fee payer, programs, wallets, token
 * accounts) come back transaction after transaction, and a PublicKey is immutable, so one is
 * shared. Bounded: cleared when full.
 */
const sharedKeys = new Map<string, PublicKey>();
const MAX_KEYS = 4096;

class Reader {
  offset = 0;
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  byte(field: string): number {
    if (this.offset >= this.#bytes.length) throw truncated(field);
    return this.#bytes[this.offset++]!;
  }

  take(length: number, field: string): Uint8Array {
    const end = this.offset + length;
    if (end > this.#bytes.length) throw truncated(field);
    const view = this.#bytes.subarray(this.offset, end);
    this.offset = end;
    return view;
  }

  /** A compact-u16 (Solana's short_vec): 1–3 bytes, 7 bits each, low first. */
  shortVec(field: string): number {
    let value = 0;
    for (let size = 0; size < 3; size += 1) {
      const byte = this.byte(field);
      value |= (byte & 0x7f) << (7 * size);
      if ((byte & 0x80) === 0) return value;
    }
    throw new WireFormatError(`The ${field} is not a compact-u16.`);
  }

  key(field: string): PublicKey {
    const bytes = this.take(32, field);
    const id = Buffer.from(bytes.buffer, bytes.byteOffset, 32).toString('latin1');
    let key = sharedKeys.get(id);
    if (!key) {
      const own = bytes.slice();
      key = new PublicKey(own);
      // Its address is worked out once, here, and shared with every transaction that lists it.
      rememberKey(key, { bytes: own, address: encodeBase58(own) });
      if (sharedKeys.size >= MAX_KEYS) sharedKeys.clear();
      sharedKeys.set(id, key);
    }
    return key;
  }
}

function truncated(field: string): WireFormatError {
  return new WireFormatError(`The bytes end inside the ${field}.`);
}
