import type { IncomingHttpHeaders } from 'node:http';
import type { ServerMount } from './server-mount-type.ts';

/** Which interface a route belongs to; decides authentication and the error body. */
export type Api = 'current' | 'legacy' | 'emulator' | 'meta';

/**
 * What the emulator learns about a request beside the Request itself, handed along as the second
 * argument of every fetch (as hono's `fetch(request, env)`): a server adapter fills what node
 * already parsed, and the core adds what observers want to know. One small object per request.
 */
export interface RequestContext {
  /** The peer's address, when a server adapter knows it (src/base/http/client-address.ts). */
  socketAddress?: string;
  /** The listener the request came in through (src/base/http/server-mount.ts); absent in process. */
  mount?: ServerMount;
  /** The header record node parsed (src/base/http/request-header.ts). */
  nativeHeaders?: IncomingHttpHeaders;
  /** The body a server adapter read from the socket (src/base/http/buffered-bodies.ts). */
  body?: Uint8Array;
  /** The body text the core read, for the journal. */
  bodyText?: string;
  /** The interface of the route that answered; null when none matched. */
  api?: Api | 'rpc' | 'kora' | null;
  /** The operationId of the route that answered; null when no route matched. */
  operationId?: string | null;
  /** The refusal's problem code and fee-payer rule when the request was refused (a thrown error). */
  problem?: { code: string; rule: string | null } | null;
}
