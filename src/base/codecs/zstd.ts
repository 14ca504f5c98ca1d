/**
 * Zstandard, as Solana's `base64+zstd` encoding carries account data: read from account dumps,
 * written by the RPC for Rust clients (`solana-client` asks for it by default).
 *
 * Decompressing is bounded before anything is allocated. fzstd (the pure-JS decoder, 20 KB)
 * allocates what a frame's header declares: a 44 KB frame declaring 1 GiB took 3–4 GB, and its
 * 32-bit header arithmetic read a declared 5 GiB as 1 GiB of wrong data. So every frame's header
 * and block headers are walked first (RFC 8878, sections 3.1.1.1 and 3.1.1.2): what the frames
 * can decompress to is bounded by their declared sizes, or their blocks' (a raw or RLE block
 * names its size, a compressed block regenerates at most 128 KiB), and a frame over the caller's
 * limit is refused before fzstd sees it.
 *
 * Compressing uses `@bokuweb/zstd-wasm` (libzstd 1.5 in WebAssembly, MIT, no dependencies):
 * loaded on first use in 5 ms; 1 MiB in 5 ms at level 3 (measured on these machines). The other
 * candidates were slower by an order of magnitude (`@hpcc-js/wasm-zstd`: 88 ms to load, 60 ms a
 * MiB), need a native build or a binary download this machine cannot make (`zstd-napi`,
 * `@mongodb-js/zstd`), or are Node 22.15's own `zlib.zstdCompress`, absent on Node 20.
 */

/** A frame the caller's limit refuses, or bytes that are no zstd: `message` says which, in words. */
export class ZstdRefusal extends Error {
  override readonly name = 'ZstdRefusal';
}

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
/** Block_Maximum_Size: no block regenerates more (RFC 8878, 3.1.1.2.3). */
const MAX_BLOCK_BYTES = 128 * 1024;

/** What the frames of `bytes` may decompress to at most, or a refusal; nothing is decompressed. */
export function zstdBound(bytes: Uint8Array, maxBytes: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cutShort = () => new ZstdRefusal('its zstd frame is cut short');
  let at = 0;
  let bound = 0;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) throw cutShort();
    const magic = view.getUint32(at, true);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (at + 8 > bytes.length) throw cutShort();
      at += 8 + view.getUint32(at + 4, true);
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new ZstdRefusal(at === 0 ? 'it is not zstd (no zstd frame at its start)' : 'it holds bytes that are no zstd frame');
    if (at + 5 > bytes.length) throw cutShort();
    const descriptor = bytes[at + 4]!;
    const contentSizeFlag = descriptor >> 6;
    const singleSegment = (descriptor >> 5) & 1;
    if ((descriptor >> 3) & 1) throw new ZstdRefusal('its zstd frame header sets a reserved bit');
    const checksum = (descriptor >> 2) & 1;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
    at += 5;
    let window = 0;
    if (!singleSegment) {
      const exponent = bytes[at]! >> 3;
      const base = 2 ** (10 + exponent);
      window = base + (base / 8) * (bytes[at]! & 7);
      at += 1;
    }
    if (dictionaryBytes > 0 && readLittleEndian(bytes, at, dictionaryBytes) !== 0n) throw new ZstdRefusal('its zstd frame needs a dictionary');
    at += dictionaryBytes;
    const sizeBytes = contentSizeFlag === 0 ? singleSegment : [0, 2, 4, 8][contentSizeFlag]!;
    if (at + sizeBytes > bytes.length) throw cutShort();
    const declared = sizeBytes === 0 ? null : readLittleEndian(bytes, at, sizeBytes) + (sizeBytes === 2 ? 256n : 0n);
    at += sizeBytes;
    if (declared !== null && declared > BigInt(maxBytes)) {
      throw new ZstdRefusal(`its zstd frame declares ${declared} bytes, more than ${maxBytes}`);
    }
    if (singleSegment) window = Number(declared);
    // The decoder holds a window's bytes while it works: what the frame declares, else its window.
    if ((declared === null || declared === 0n) && window > maxBytes)
      throw new ZstdRefusal(`its zstd frame asks for a window of ${window} bytes, more than ${maxBytes}`);
    let regenerated = 0;
    for (let last = 0; !last; ) {
      if (at + 3 > bytes.length) throw cutShort();
      const header = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
      last = header & 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) throw new ZstdRefusal('its zstd frame holds a block of the reserved type');
      regenerated += type === 2 ? Math.min(MAX_BLOCK_BYTES, window || MAX_BLOCK_BYTES) : size;
      at += 3 + (type === 1 ? 1 : size);
      if (at > bytes.length) throw cutShort();
    }
    at += checksum * 4;
    if (at > bytes.length) throw cutShort();
    bound += declared === null ? regenerated : Math.min(Number(declared), regenerated);
    if (bound > maxBytes) throw new ZstdRefusal(`its zstd frames hold more than ${maxBytes} bytes`);
  }
  return bound;
}

function readLittleEndian(bytes: Uint8Array, at: number, length: number): bigint {
  let value = 0n;
  for (let index = length - 1; index >= 0; index -= 1) value = (value << 8n) | BigInt(bytes[at + index]!);
  return value;
}

/** The bytes `frames` decompress to, at most `maxBytes`, or a {@link ZstdRefusal} before anything is allocated. */
export async function zstdDecompress(frames: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  zstdBound(frames, maxBytes);
  // Node 20 has no zstd; fzstd is loaded only when something needs it.
  const { decompress } = await import('fzstd');
  let bytes: Uint8Array;
  try {
    bytes = decompress(frames);
  } catch (error) {
    throw new ZstdRefusal(`it is not valid zstd (${(error as Error).message})`);
  }
  if (bytes.length > maxBytes) throw new ZstdRefusal(`its zstd frames hold more than ${maxBytes} bytes`);
  return bytes;
}

let compressor: Promise<typeof import('@bokuweb/zstd-wasm')> | undefined;

/** One zstd frame of `bytes` at level 3, libzstd's default and what Agave's RPC writes (`zstd::encode_all(…, 0)`). */
export async function zstdCompress(bytes: Uint8Array): Promise<Uint8Array> {
  const zstd = await (compressor ??= import('@bokuweb/zstd-wasm').then(async (module) => {
    await module.init();
    return module;
  }));
  return zstd.compress(bytes, 3);
}

/**
 * One zstd frame of `bytes` as Agave's RPC writes `base64+zstd` (account-decoder: a streaming
 * `zstd::stream::write::Encoder` at level 0, libzstd's default 3): the same blocks as
 * {@link zstdCompress}, under the header a streaming encoder writes, which pledges no size: no
 * content size, not single-segment, no checksum, and the window of level 3 for an unknown size
 * (2 MiB: descriptor 0x58). Clients that compare the bytes (kit's tests) see Agave's `KLUv/QBY…`.
 */
export async function zstdCompressStreamed(bytes: Uint8Array): Promise<Uint8Array> {
  const frame = await zstdCompress(bytes);
  const descriptor = frame[4]!;
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
  const sizeBytes = descriptor >> 6 === 0 ? singleSegment : [0, 2, 4, 8][descriptor >> 6]!;
  const header = 5 + (singleSegment ? 0 : 1) + dictionaryBytes + sizeBytes;
  // A checksum after the blocks (none by default) goes with the header that announced it.
  const blocks = frame.subarray(header, frame.length - ((descriptor >> 2) & 1) * 4);
  const streamed = new Uint8Array(6 + blocks.length);
  streamed.set(frame.subarray(0, 4));
  streamed[4] = 0x00;
  streamed[5] = 0x58;
  streamed.set(blocks, 6);
  return streamed;
}
