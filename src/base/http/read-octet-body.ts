import { RelayError } from '../errors/relay-error.ts';
import { readCapped } from './read-capped.ts';
import type { RequestContext } from './request-context.ts';
import { headerOf } from './request-header.ts';

/**
 * Reads an `application/octet-stream` body (a program's ELF): 415 for another type, 413 past the
 * cap. A body the server adapter buffered (one without a Content-Length, or a declared one within
 * the usual limit) is held to `bufferedMaxBytes`: the adapter kept no more, so a longer one is
 * cut. A body it left unread (a declared length past that limit, or a request made in process,
 * through MSW or `emulator.fetch`) may be up to `maxBytes`.
 */
export async function readOctetBody(request: Request, options: { bufferedMaxBytes: number; maxBytes: number; context: RequestContext }): Promise<Uint8Array> {
  const type = (headerOf(request, options.context, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const buffered = options.context.body;
  if (type !== 'application/octet-stream') {
    if (!buffered) void request.body?.cancel().catch(() => undefined);
    throw RelayError.of('UNSUPPORTED_MEDIA_TYPE', { contentType: type, expected: 'application/octet-stream' });
  }
  if (buffered) {
    if (buffered.length > options.bufferedMaxBytes) throw tooLarge(options.bufferedMaxBytes);
    return buffered;
  }
  const declared = Number(headerOf(request, options.context, 'content-length') ?? Number.NaN);
  if (declared > options.maxBytes) {
    void request.body?.cancel().catch(() => undefined);
    throw tooLarge(options.maxBytes);
  }
  const bytes = await readCapped(request.body, options.maxBytes);
  if (bytes === null) throw tooLarge(options.maxBytes);
  return bytes;
}

function tooLarge(maxBytes: number): RelayError {
  return RelayError.of('PAYLOAD_TOO_LARGE', { maxBytes });
}
