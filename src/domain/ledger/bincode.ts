import { encodeBase58 } from '../../base/crypto/base58.ts';

// bincode's little-endian fields, read with bounds (a hostile length never allocates) and written into fixed-size buffers.

/** A little-endian reader that throws past its end (bincode's "unexpected end"). */
export class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}
  #need(length: number): number {
    if (this.at + length > this.bytes.length) throw new RangeError('unexpected end of data');
    const start = this.at;
    this.at += length;
    return start;
  }
  u8(): number {
    return this.bytes[this.#need(1)]!;
  }
  u16(): number {
    const at = this.#need(2);
    return this.bytes[at]! | (this.bytes[at + 1]! << 8);
  }
  u32(): number {
    const at = this.#need(4);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset).getUint32(at, true);
  }
  u64(): bigint {
    const at = this.#need(8);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset).getBigUint64(at, true);
  }
  i64(): bigint {
    const at = this.#need(8);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset).getBigInt64(at, true);
  }
  f64(): number {
    const at = this.#need(8);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset).getFloat64(at, true);
  }
  pubkey(): string {
    const at = this.#need(32);
    return encodeBase58(this.bytes.subarray(at, at + 32));
  }
  raw(length: number): Uint8Array {
    const at = this.#need(length);
    return this.bytes.subarray(at, at + length);
  }
  /** A collection's length, bounded by what the data could hold (a hostile length never allocates). */
  length(itemBytes: number): number {
    const length = this.u64();
    if (length * BigInt(itemBytes) > BigInt(this.bytes.length - this.at)) throw new RangeError('a length past the data');
    return Number(length);
  }
  option<T>(read: () => T): T | null {
    const tag = this.u8();
    if (tag > 1) throw new RangeError('an option tag that is neither 0 nor 1');
    return tag === 1 ? read() : null;
  }
}

/** A little-endian writer into a buffer of a fixed size (the rest zeros). */
export class Writer {
  at = 0;
  readonly bytes: Uint8Array;
  readonly #view: DataView;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.#view = new DataView(this.bytes.buffer);
  }
  u8(value: number): this {
    this.bytes[this.at] = value;
    this.at += 1;
    return this;
  }
  u32(value: number): this {
    this.#view.setUint32(this.at, value, true);
    this.at += 4;
    return this;
  }
  u64(value: bigint): this {
    this.#view.setBigUint64(this.at, value, true);
    this.at += 8;
    return this;
  }
  i64(value: bigint): this {
    this.#view.setBigInt64(this.at, value, true);
    this.at += 8;
    return this;
  }
  f64(value: number): this {
    this.#view.setFloat64(this.at, value, true);
    this.at += 8;
    return this;
  }
  key(key: Uint8Array): this {
    this.bytes.set(key, this.at);
    this.at += 32;
    return this;
  }
}
