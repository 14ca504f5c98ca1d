import type { IncomingMessage } from 'node:http';

/**
 * Reads the body of `incoming` into `context.body` (of the request context the adapter is making), at most `limit` bytes (one more than the cap is
 * enough to answer 413; the rest is drained). Answers `undefined` at once when there is nothing to
 * read (no body, or a declared size over the limit: the core answers 413 from Content-Length
 * alone), else a promise that settles once the body is read. Rejects when the client goes away
 * mid-body.
 */
export function bufferIncomingBody(context: { body?: Uint8Array }, incoming: IncomingMessage, limit: number): Promise<void> | undefined {
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  const chunked = /\bchunked\b/i.test(incoming.headers['transfer-encoding'] ?? '');
  if (!(declared > 0) && !chunked) return undefined;
  if (declared >= limit) return undefined;
  // Events, not `for await`: an async iterator over the stream costs more a request (BENCHMARKS.md, "Measured reasons").
  // Listeners are methods, not named arrows, which keepNames would rename on every call.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const on = {
      data(chunk: Buffer) {
        chunks.push(chunk);
        total += chunk.length;
        if (total >= limit) {
          on.finish();
          incoming.resume(); // Drain the rest without keeping it.
        }
      },
      end() {
        on.finish();
      },
      close() {
        on.finish(new Error('the client closed the connection before the request body ended'));
      },
      finish(error?: Error) {
        incoming.off('data', on.data).off('end', on.end).off('error', on.finish).off('close', on.close);
        if (error) return reject(error);
        context.body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        resolve();
      },
    };
    incoming.on('data', on.data).on('end', on.end).on('error', on.finish).on('close', on.close);
  });
}
