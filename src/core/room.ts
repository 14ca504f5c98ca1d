import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { InterfaceName, RequestContext } from '../base/http/request-context.ts';
import type { Call, Route } from '../base/http/router.ts';
import type { ServerMount } from '../base/http/server-mount-type.ts';

/** The rest of the chain, from a middleware's place in it. */
export type Next = () => Promise<Response>;

/**
 * Runs around what follows it (as hono's middleware): it may answer itself, or call `next` and
 * look at or replace the response. An interface's middleware runs around its own handlers only;
 * the assembly's (CORS, the exchange's observers, durability) around every request.
 */
export type Middleware<D = unknown> = (call: Call<D>, next: Next) => Promise<Response>;

/** An endpoint's claim on a request: the operation it calls, or, for one of its paths with a method it does not take, what it takes. */
export type EndpointMatch = { operationId: string } | { allow: string };

/** An interface matched by URL before any route (the RPC at `rpcUrl`, Kora at `koraUrl`): one handler. */
export interface Endpoint<D> {
  /** Its claim on the request, or null when the request is not its (`context.mount`: the listener it came in through). */
  match(request: Request, pathname: string, context: RequestContext): EndpointMatch | null;
  handle(call: Call<D>): Promise<Response>;
}

/** A WebSocket upgrade an interface serves at some of its paths (the RPC's PubSub). */
export interface Upgrade {
  /** True for a path whose upgrades it serves. */
  matches(pathname: string): boolean;
  /** Takes over the socket: answers the handshake, or refuses it on the socket. */
  handle(request: IncomingMessage, socket: Duplex, head: Buffer, mount: ServerMount | undefined): Promise<void>;
}

/**
 * One interface, as the core mounts it: its name, what it serves (routes under the base URL's path
 * or at the origin's root, an endpoint, an upgrade), the middleware around its handlers, and the
 * narrow dependency object its handlers are handed as `call.deps`. The core knows no interface by
 * name: it matches the request, composes the interface's middleware and calls it.
 */
export interface Room<D = unknown> {
  name: InterfaceName;
  deps: D;
  middleware?: readonly Middleware<D>[];
  endpoint?: Endpoint<D>;
  /** Routes under the base URL's path (`base`) or at the origin's root (`root`). */
  routes?: { base?: readonly Route<D>[]; root?: readonly Route<D>[] };
  upgrade?: Upgrade;
}

/**
 * A room of any dependency type, as the core holds it: a room's routes and middleware take its own
 * deps, which the core hands back only to them.
 */
// biome-ignore lint/suspicious/noExplicitAny: the core never reads a room's deps; it pairs them with the room's own handlers.
export type AnyRoom = Room<any>;

/** Builds a room, checking that its parts agree on their dependency type. */
export function room<D>(definition: Room<D>): Room<D> {
  return definition;
}
