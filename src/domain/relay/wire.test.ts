import { AddressLookupTableAccount, Keypair, SystemProgram, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { RelayError } from '../../base/errors/relay-error.ts';
import { addressOf, keyBytesOf } from '../../base/crypto/key-cache.ts';
import { decodeWireTransaction } from './wire.ts';
import { parseWire, WireFormatError } from './wire-parse.ts';
import { type Shape, shapeBytes } from '../../base/words/transaction-shapes.test-support.ts';

function legacy(shape: Shape): string {
  return Buffer.from(shapeBytes(shape)).toString('base64');
}

function codeOf(base64: string): string {
  try {
    decodeWireTransaction(base64);
    return 'OK';
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    return `${error.code}: ${error.detail}`;
  }
}

const [payer, other, program] = [Keypair.generate().publicKey, Keypair.generate().publicKey, Keypair.generate().publicKey];
const good: Shape = { header: [1, 0, 1], keys: [payer, other, program], instructions: [{ program: 2, accounts: [0, 1], data: [1, 2] }] };

describe('decodeWireTransaction sanitizes the message (rule W3)', () => {
  it('accepts a well-formed message', () => {
    expect(codeOf(legacy(good))).toBe('OK');
  });

  it.each([
    ['a signature count other than the header', { ...good, signatures: 2 }, /signatures/],
    ['no signer at all', { ...good, header: [0, 0, 1] as [number, number, number], signatures: 0 }, /header/],
    ['a read-only fee payer', { ...good, header: [1, 1, 1] as [number, number, number] }, /fee payer must be a writable signer/],
    ['more read-only accounts than unsigned keys', { ...good, header: [1, 0, 3] as [number, number, number] }, /header does not fit/],
    ['a repeated account key', { ...good, keys: [payer, payer, program] }, /twice/],
    ['the fee payer as a program', { ...good, instructions: [{ program: 0, accounts: [], data: [] }] }, /the fee payer/],
    ['a program index out of range', { ...good, instructions: [{ program: 9, accounts: [], data: [] }] }, /out of range/],
    ['an account index out of range', { ...good, instructions: [{ program: 2, accounts: [0, 200], data: [] }] }, /account index 200/],
  ])('refuses %s as INVALID_TRANSACTION', (_, shape, detail) => {
    const answer = codeOf(legacy(shape as Shape));
    expect(answer).toMatch(/^INVALID_TRANSACTION: /);
    expect(answer).toMatch(detail);
  });

  it('refuses truncated bytes and trailing bytes as INVALID_TRANSACTION, never with another error type', () => {
    const bytes = Buffer.from(legacy(good), 'base64');
    for (let length = 0; length < bytes.length; length += 1) {
      expect(codeOf(bytes.subarray(0, length).toString('base64') || 'AA==')).toMatch(/^(INVALID_TRANSACTION|INVALID_BASE64)/);
    }
    expect(codeOf(Buffer.concat([bytes, Buffer.from([0])]).toString('base64'))).toMatch(/^INVALID_TRANSACTION: .*trailing/);
  });

  it('refuses unpadded or URL-safe base64 (rule W1) and more than a packet (rule W2)', () => {
    expect(codeOf(`${legacy(good).replace(/=+$/, '')}-`)).toMatch(/^INVALID_BASE64/);
    expect(codeOf(Buffer.alloc(1233).toString('base64'))).toMatch(/^TRANSACTION_TOO_LARGE/);
  });
});

describe('parseWire reads what VersionedTransaction.deserialize reads', () => {
  const payer = Keypair.generate();
  const other = Keypair.generate().publicKey;
  const instructions = [
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: other, lamports: 1 }),
    new TransactionInstruction({
      programId: Keypair.generate().publicKey,
      keys: [{ pubkey: other, isSigner: false, isWritable: false }],
      data: Buffer.alloc(200, 7),
    }),
  ];
  const blockhash = Keypair.generate().publicKey.toBase58();
  const table = new AddressLookupTableAccount({
    key: Keypair.generate().publicKey,
    state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [other] },
  });
  const messages = {
    legacy: new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToLegacyMessage(),
    v0: new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message(),
    'v0 with a lookup table': new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message([table]),
  };

  it.each(Object.entries(messages))('%s: the same message, signatures and keys, and the same bytes again', (_, message) => {
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const bytes = tx.serialize();
    const expected = VersionedTransaction.deserialize(bytes);
    // Twice: the second parse shares the keys the first one made.
    for (let round = 0; round < 2; round += 1) {
      const parsed = parseWire(bytes);
      expect(parsed.messageEnd).toBe(bytes.length);
      expect(parsed.signaturesOffset).toBe(1);
      expect(parsed.messageStart).toBe(1 + 64);
      expect(parsed.tx.version).toBe(expected.version);
      expect(parsed.tx.signatures).toEqual(expected.signatures);
      expect(parsed.tx.message.header).toEqual(expected.message.header);
      expect(parsed.tx.message.recentBlockhash).toBe(expected.message.recentBlockhash);
      expect(parsed.tx.message.compiledInstructions).toEqual(expected.message.compiledInstructions);
      expect(parsed.tx.message.addressTableLookups.map((lookup) => ({ ...lookup, accountKey: lookup.accountKey.toBase58() }))).toEqual(
        expected.message.addressTableLookups.map((lookup) => ({ ...lookup, accountKey: lookup.accountKey.toBase58() })),
      );
      const keys = parsed.tx.message.staticAccountKeys;
      expect(keys.map((key) => key.toBase58())).toEqual(expected.message.staticAccountKeys.map((key) => key.toBase58()));
      // What the keys remember is theirs.
      expect(keys.map((key) => addressOf(key))).toEqual(keys.map((key) => key.toBase58()));
      expect(keys.map((key) => [...keyBytesOf(key)])).toEqual(keys.map((key) => [...key.toBytes()]));
      expect(Buffer.from(parsed.tx.serialize()).equals(Buffer.from(bytes))).toBe(true);
      expect(parsed.tx.message.isAccountWritable(1)).toBe(expected.message.isAccountWritable(1));
    }
  });

  it('refuses bytes that end inside a field, and a compact-u16 longer than three bytes', () => {
    expect(() => parseWire(new Uint8Array([1, ...new Uint8Array(10)]))).toThrow(WireFormatError);
    expect(() => parseWire(new Uint8Array([0x80, 0x80, 0x80, 0x01]))).toThrow(/compact-u16/);
    expect(codeOf(Buffer.from([0x80, 0x80, 0x80, 0x01]).toString('base64'))).toMatch(/^INVALID_TRANSACTION: signedTransaction is not a Solana transaction/);
  });

  it('refuses a message version other than 0, as web3.js does', () => {
    expect(() => parseWire(new Uint8Array([1, ...new Uint8Array(64), 0x81, 1, 0, 0]))).toThrow(/version 1 deserialization is not supported/);
  });
});
