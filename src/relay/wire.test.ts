import { AddressLookupTableAccount, Keypair, PublicKey, SystemProgram, TransactionInstruction, TransactionMessage } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { RelayError } from '../errors/relay-error.ts';
import { decodeWireTransaction, serializedMessageLength } from './wire.ts';

/** Hand-serialized legacy transactions, to reach shapes no builder produces. */
function shortVec(n: number): number[] {
  const out: number[] = [];
  let rest = n;
  for (;;) {
    let byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) return [...out, byte];
    byte |= 0x80;
    out.push(byte);
  }
}

interface Shape {
  signatures?: number;
  header: [number, number, number];
  keys: PublicKey[];
  instructions: { program: number; accounts: number[]; data: number[] }[];
}

function legacy(shape: Shape): string {
  const message = [
    ...shape.header,
    ...shortVec(shape.keys.length),
    ...shape.keys.flatMap((key) => [...key.toBytes()]),
    ...new Uint8Array(32).fill(7),
    ...shortVec(shape.instructions.length),
    ...shape.instructions.flatMap((ix) => [ix.program, ...shortVec(ix.accounts.length), ...ix.accounts, ...shortVec(ix.data.length), ...ix.data]),
  ];
  const count = shape.signatures ?? shape.header[0];
  return Buffer.from([...shortVec(count), ...new Uint8Array(64 * count), ...message]).toString('base64');
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
    expect(codeOf(legacy(good).replace(/=+$/, '') + '-')).toMatch(/^INVALID_BASE64/);
    expect(codeOf(Buffer.alloc(1233).toString('base64'))).toMatch(/^TRANSACTION_TOO_LARGE/);
  });
});

describe('serializedMessageLength', () => {
  it('equals the length of message.serialize() for legacy and v0 messages, with and without lookups', () => {
    const payer = Keypair.generate().publicKey;
    const other = Keypair.generate().publicKey;
    const instructions = [
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: other, lamports: 1 }),
      new TransactionInstruction({ programId: Keypair.generate().publicKey, keys: [], data: Buffer.alloc(200, 7) }),
    ];
    const blockhash = Keypair.generate().publicKey.toBase58();
    const legacy = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions }).compileToLegacyMessage();
    const v0 = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions }).compileToV0Message();
    const table = new AddressLookupTableAccount({ key: Keypair.generate().publicKey, state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [other] } });
    const withLookups = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions }).compileToV0Message([table]);
    expect(withLookups.addressTableLookups).toHaveLength(1);
    for (const message of [legacy, v0, withLookups]) expect(serializedMessageLength(message)).toBe(message.serialize().length);
  });
});
