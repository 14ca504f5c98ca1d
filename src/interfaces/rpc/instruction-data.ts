import { encodeBase58 } from '../../base/crypto/base58.ts';

// What the jsonParsed instruction parsers share: the instruction shape, and a reader of its data.

/** A compiled instruction with its keys resolved to base58. */
export interface ResolvedInstruction {
  programId: string;
  accounts: string[];
  data: Uint8Array;
}

export type Info = Record<string, unknown>;
export interface Parsed {
  type: string;
  info: Info;
}

/** Reads instruction data left to right; throws RangeError when it runs out. */
export class Reader {
  #offset = 0;
  readonly #view: DataView;
  constructor(readonly data: Uint8Array) {
    this.#view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  u8(): number {
    return this.#view.getUint8(this.#take(1));
  }
  u32(): number {
    return this.#view.getUint32(this.#take(4), true);
  }
  u64(): bigint {
    return this.#view.getBigUint64(this.#take(8), true);
  }
  key(): string {
    const start = this.#take(32);
    return encodeBase58(this.data.subarray(start, start + 32));
  }
  /** SPL Token's COption<Pubkey> in instruction data: a 1-byte tag, then the key only when set. */
  optionKey(): string | null {
    return this.u8() === 1 ? this.key() : null;
  }
  /** bincode's String: a u64 length, then UTF-8 bytes. */
  string(): string {
    const length = Number(this.u64());
    const start = this.#take(length);
    return new TextDecoder().decode(this.data.subarray(start, start + length));
  }
  #take(length: number): number {
    const start = this.#offset;
    if (start + length > this.data.length) throw new RangeError('instruction data too short');
    this.#offset += length;
    return start;
  }
}

/** The instruction's account at `index`; throws RangeError when there are too few. */
export function account(ix: ResolvedInstruction, index: number): string {
  const key = ix.accounts[index];
  if (key === undefined) throw new RangeError('not enough accounts');
  return key;
}
