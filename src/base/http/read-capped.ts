/**
 * Reads a body stream up to `maxBytes`: its bytes, or null as soon as it grows past the cap or
 * `accept` refuses a chunk (the rest is cancelled, without waiting: cancelling may not settle on
 * every host, MSW's interceptor and tee'd copies among them).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  accept?: (chunk: Uint8Array) => boolean,
): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes || (accept !== undefined && !accept(value))) {
      void reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
