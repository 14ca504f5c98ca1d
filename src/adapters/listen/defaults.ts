/**
 * Where `relay-emulator start` and startServer listen unless told otherwise. A module of its own so
 * that the command line's option parsing (and `start --help`) loads no emulator.
 */
export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';

/**
 * How long the node server waits for a client. Node 20's defaults (60 s for headers, checked every
 * 30 s) kept a connection that never sent a byte for 90 s, measured with 2,000 of them (issue 24.9
 * reported them kept for good); with these, 22.5 s. Answers take as long as they take; these bound
 * only what the client owes.
 * - headersMs: from the connection (or the previous response) to a request's complete headers; a
 *   connection that sends nothing, or headers a byte at a time, is answered 408 and closed.
 * - requestMs: to the whole request, body included.
 * - keepAliveMs: an idle keep-alive connection between requests: 15 s, below headersMs (which an idle
 *   connection is held to as well). A client busy longer than this between two requests still holds
 *   the socket in its pool, its own expiry timer unable to run, and its next request meets "other
 *   side closed": kit's tests turning a 2.9 MB leader schedule into bigints did, when this was 5 s.
 *   Agave's RPC (hyper) closes no idle connection.
 * - checkEveryMs: how often the first two are checked (so they hold within that much).
 * WebSocket (PubSub) connections leave these behind once upgraded; they have pings of their own.
 */
export interface ClientTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
  checkEveryMs: number;
}
export const CLIENT_TIMEOUTS: Readonly<ClientTimeouts> = Object.freeze({ headersMs: 20_000, requestMs: 120_000, keepAliveMs: 15_000, checkEveryMs: 2_000 });
