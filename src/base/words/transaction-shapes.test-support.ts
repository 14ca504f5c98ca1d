import type { PublicKey } from '@solana/web3.js';

// Hand-serialized legacy transactions, to reach shapes no builder produces (for the sanitize tests
// of the relay and the RPC). Signatures are zeros and the blockhash is 7s: only the shape matters.

export function shortVec(n: number): number[] {
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

export interface Shape {
  /** Signatures carried; the header's count by default. */
  signatures?: number;
  header: [number, number, number];
  keys: PublicKey[];
  instructions: { program: number; accounts: number[]; data: number[] }[];
}

export function shapeBytes(shape: Shape): Uint8Array {
  const message = [
    ...shape.header,
    ...shortVec(shape.keys.length),
    ...shape.keys.flatMap((key) => [...key.toBytes()]),
    ...new Uint8Array(32).fill(7),
    ...shortVec(shape.instructions.length),
    ...shape.instructions.flatMap((ix) => [ix.program, ...shortVec(ix.accounts.length), ...ix.accounts, ...shortVec(ix.data.length), ...ix.data]),
  ];
  const count = shape.signatures ?? shape.header[0];
  return new Uint8Array([...shortVec(count), ...new Uint8Array(64 * count), ...message]);
}
