import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { type Shape, shapeBytes } from '../../base/words/transaction-shapes.test-support.ts';
import { decodeTransaction } from './decode-transaction.ts';
import { JsonRpcError } from './json-rpc-error.ts';

const [payer, other, program] = [Keypair.generate().publicKey, Keypair.generate().publicKey, Keypair.generate().publicKey];
const good: Shape = { header: [1, 0, 1], keys: [payer, other, program], instructions: [{ program: 2, accounts: [0, 1], data: [1, 2] }] };

/** The -32602 message the RPC answers for a shape, or OK. */
function answer(shape: Shape): string {
  try {
    decodeTransaction(Buffer.from(shapeBytes(shape)).toString('base64'), 'base64');
    return 'OK';
  } catch (error) {
    if (!(error instanceof JsonRpcError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

// The sanitize step is the relay's (src/base/words/sanitize.ts), in the validator's words: agave's
// RuntimeTransaction::try_create, answered as `invalid transaction: {err}`.
describe('decodeTransaction sanitizes as the validator does', () => {
  it('takes a well-formed message', () => {
    expect(answer(good)).toBe('OK');
  });

  it('refuses a repeated account key as AccountLoadedTwice', () => {
    expect(answer({ ...good, keys: [payer, payer, program] })).toBe('-32602: invalid transaction: Account loaded twice');
  });

  it.each([
    ['more read-only unsigned accounts than unsigned keys', { ...good, header: [1, 0, 3] as [number, number, number] }],
    ['a read-only fee payer', { ...good, header: [1, 1, 1] as [number, number, number] }],
    ['the fee payer as a program', { ...good, instructions: [{ program: 0, accounts: [], data: [] }] }],
    ['an account index out of range', { ...good, instructions: [{ program: 2, accounts: [0, 200], data: [] }] }],
  ])('refuses %s as a sanitize failure', (_, shape) => {
    expect(answer(shape)).toBe('-32602: invalid transaction: Transaction failed to sanitize accounts offsets correctly');
  });
});
