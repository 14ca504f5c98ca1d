import type { IncomingHttpHeaders } from 'node:http';
import type { ServerMount } from './server-mount-type.ts';

/**
 * What the emulator learns about a request on its way through, kept on the Request itself under a
 * private symbol: one small object per request, not a WeakMap keyed by requests, whose entries
 * cost garbage collection on every request (BENCHMARKS.md, "Measured reasons").
 */
export interface RequestFacts {
  /** The peer's address, when a server adapter knows it (src/http/client-address.ts). */
  socketAddress?: string;
  /** The listener the request came in through (src/http/server-mount.ts); absent in process. */
  mount?: ServerMount;
  /** The header record node parsed (src/http/request-header.ts). */
  nativeHeaders?: IncomingHttpHeaders;
  /** The body a server adapter read from the socket (src/http/buffered-bodies.ts). */
  body?: Uint8Array;
  /** The body text the core read, for the journal. */
  bodyText?: string;
  /** The operationId of the route that answered, for the journal; null when no route matched. */
  operationId?: string | null;
}

const FACTS = Symbol('relay-emulator.request-facts');
type Carrier = { [FACTS]?: RequestFacts };

/** The facts of a request, created empty on first use. */
export function requestFacts(request: Request): RequestFacts {
  return ((request as unknown as Carrier)[FACTS] ??= {});
}

/** The facts of a request when something recorded any, else undefined. */
export function knownRequestFacts(request: Request): RequestFacts | undefined {
  return (request as unknown as Carrier)[FACTS];
}
