import { Keypair, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { sanitizeProblem } from './sanitize.ts';
import { type Shape, shapeBytes } from './transaction-shapes.test-support.ts';

const [payer, other, program] = [Keypair.generate().publicKey, Keypair.generate().publicKey, Keypair.generate().publicKey];
const good: Shape = { header: [1, 0, 1], keys: [payer, other, program], instructions: [{ program: 2, accounts: [0, 1], data: [1, 2] }] };
const problemOf = (shape: Shape) => sanitizeProblem(VersionedTransaction.deserialize(shapeBytes(shape)));

describe('sanitizeProblem', () => {
  it('finds nothing wrong with a well-formed message', () => {
    expect(problemOf(good)).toBeNull();
  });

  it('names each problem with what the interfaces need to say it', () => {
    // web3.js refuses this shape when it deserializes; the relay's own parser lets it through to here.
    const extraSignature = VersionedTransaction.deserialize(shapeBytes(good));
    extraSignature.signatures.push(new Uint8Array(64));
    expect(sanitizeProblem(extraSignature)).toEqual({ kind: 'signature-count', signatures: 2, required: 1 });
    expect(problemOf({ ...good, header: [1, 0, 3] })).toEqual({ kind: 'header' });
    expect(problemOf({ ...good, instructions: [{ program: 0, accounts: [], data: [] }] })).toEqual({ kind: 'program-index', instruction: 0, programIndex: 0 });
    expect(problemOf({ ...good, instructions: [{ program: 2, accounts: [0, 200], data: [] }] })).toEqual({
      kind: 'account-index',
      instruction: 0,
      accountIndex: 200,
    });
    expect(problemOf({ ...good, keys: [payer, payer, program] })).toEqual({ kind: 'duplicate-key' });
  });
});
