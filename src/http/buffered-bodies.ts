import type { IncomingMessage } from 'node:http';

/**
 * Request bodies a server adapter already read from the socket. Reading a body natively from
 * node's IncomingMessage is several times cheaper than pulling it through the web stream of a
 * fetch Request, so the node server reads it first and the core takes the bytes from here.
 */
const buffered = new WeakMap<Request, Uint8Array>();

export function bufferedBodyOf(request: Request): Uint8Array | undefined {
  return buffered.get(request);
}

/**
 * Reads the body of `incoming` for `request`, at most `limit` bytes (one more than the cap is
 * enough to answer 413; the rest is drained). Leaves declared-oversize bodies unread: the core
 * answers 413 from Content-Length alone.
 */
export async function bufferIncomingBody(request: Request, incoming: IncomingMessage, limit: number): Promise<void> {
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  const chunked = /\bchunked\b/i.test(String(incoming.headers['transfer-encoding'] ?? ''));
  if (!(declared > 0) && !chunked) return;
  if (declared >= limit) return;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    total += chunk.length;
    if (total >= limit) {
      incoming.resume();
      break;
    }
  }
  buffered.set(request, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}
