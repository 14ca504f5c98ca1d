import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { RelayError } from '../base/errors/relay-error.ts';
import { errorToResponse, problemOf } from '../base/http/error-response.ts';
import type { FetchHandler } from '../base/http/exchange.ts';
import { readJsonBody } from '../base/http/read-json-body.ts';
import { freshVars, type InterfaceName, type RequestContext, type RequestVars } from '../base/http/request-context.ts';
import { pathnameOf, withoutTrailingSlashes } from '../base/http/request-url.ts';
import { respond } from '../base/http/respond.ts';
import { errorStyleOf, type Call, type Route, type RouteMatch, Router } from '../base/http/router.ts';
import type { ServerMount } from '../base/http/server-mount-type.ts';
import { compose } from './compose.ts';
import type { AnyRoom, Middleware } from './room.ts';

export type { Exchange, ExchangeObserver, FetchHandler } from '../base/http/exchange.ts';

export interface CoreOptions {
  /**
   * The interfaces. Their endpoints are matched in this order, before any route (Kora's before the
   * RPC's: `koraUrl` may name the RPC's path on another origin); routes sharing a method and path
   * are tried in this order too (legacy before current: their `accepts` guard claims by body).
   */
  rooms: readonly AnyRoom[];
  /** The base URL's path, under which the rooms' `base` routes are mounted. */
  basePath: string;
  /** Around every request, outermost first: the assembly's (the exchange's observers, CORS, durability). */
  middleware?: readonly Middleware[];
  /** The largest JSON body a route reads (`call.body()`). */
  maxBodyBytes: number;
  /**
   * What makes state changes durable (the state file's journal): nothing is answered before the
   * changes made so far are (group commit: an acknowledged relay is never lost), and a write that
   * fails is a 500 in the answering interface's style. Without one nothing is ever pending.
   */
  durability?: Durability;
}

/** What makes state changes durable; `pending` is read once per request, so it must be cheap. */
export interface Durability {
  readonly pending: boolean;
  durable(): Promise<void>;
}

/** The one core: the fetch every mount serves, and the WebSocket upgrades of the interfaces that serve some. */
export interface Core {
  fetch: FetchHandler;
  /** Hands an upgrade to the interface that serves its path; false when none does (the listener refuses it). */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, mount: ServerMount | undefined): Promise<boolean>;
}

/** A route as mounted: its room's middleware composed around its handler, and the deps it is handed. */
interface Mounted {
  deps: unknown;
  run: (call: Call) => Promise<Response>;
}

/**
 * The emulator's single core: a fetch-style function from Request to Response. MSW handlers and
 * the node listeners mount exactly this function, so no route is written twice. It only matches
 * and composes, as hono's core does: it finds the interface a request is for (an endpoint by URL,
 * else a route of the base URL's or the root's router), runs that interface's middleware around its
 * handler, and turns what is thrown into the interface's error body. It imports no interface; the
 * assembly mounts them (src/assembly/emulator.ts). What it learns (the interface, the operation, a
 * refusal's problem) goes in the request's store, `call.vars`, for the observers.
 */
export function createCore(options: CoreOptions): Core {
  const base = new Router<unknown>(options.basePath);
  const root = new Router<unknown>('');
  const routes = new Map<Route<unknown>, Mounted>();
  const endpoints: { room: AnyRoom; mounted: Mounted }[] = [];
  for (const room of options.rooms) {
    const middleware = room.middleware ?? [];
    for (const [router, list] of [
      [base, room.routes?.base ?? []],
      [root, room.routes?.root ?? []],
    ] as const) {
      for (const route of list) {
        routes.set(route, { deps: room.deps, run: compose(middleware, (call) => route.handle(call)) });
        router.add(route);
      }
    }
    if (room.endpoint) endpoints.push({ room, mounted: { deps: room.deps, run: compose(middleware, room.endpoint.handle) } });
  }

  async function dispatch(call: Call): Promise<Response> {
    const { request, vars } = call;
    const pathname = pathnameOf(request.url);
    let response: Response;
    try {
      response = await answer(call, pathname);
    } catch (error) {
      // An unknown path under the base URL answers in the style of the interface it looks like:
      // the legacy SDK reads `message` from a 404 (`/api/transaction/<unknown>`).
      if (vars.api === 'current' && error instanceof RelayError && error.code === 'ROUTE_NOT_FOUND') vars.api = base.interfaceOf(pathname) ?? vars.api;
      vars.problem = problemOf(error);
      response = failure(error, vars.api, pathname);
    }
    // Awaited here, not in a middleware: a request with nothing pending (every one, in process) pays one check.
    if (durability?.pending) {
      try {
        await durability.durable();
      } catch (error) {
        vars.problem = problemOf(error);
        response = failure(error, vars.api, pathname);
      }
    }
    return request.method === 'HEAD' ? respond(null, { status: response.status, headers: response.headers }) : response;
  }

  async function answer(call: Call, pathname: string): Promise<Response> {
    const { request, vars } = call;
    for (const { room, mounted } of endpoints) {
      const match = room.endpoint!.match(request, pathname, call.requestContext);
      if (match === null) continue;
      vars.api = room.name;
      if ('allow' in match) throw RelayError.of('METHOD_NOT_ALLOWED', { method: request.method, headers: { Allow: match.allow } });
      vars.operationId = match.operationId;
      call.deps = mounted.deps;
      return mounted.run(call);
    }
    const router = base.owns(pathname) ? base : root;
    vars.api = router === base ? 'current' : 'emulator';
    const matches = router.candidates(request.method, pathname);
    const { route, params } = matches[0]!.route.accepts ? await choose(matches, call, routes) : matches[0]!;
    const mounted = routes.get(route)!;
    vars.api = route.api;
    vars.operationId = route.operationId;
    call.params = params;
    call.deps = mounted.deps;
    return mounted.run(call);
  }

  const chain = compose(options.middleware ?? [], dispatch);
  const { maxBodyBytes, durability } = options;
  return {
    fetch: (request, context = NO_CONTEXT) => chain(new CoreCall(request, context, freshVars(), maxBodyBytes)),
    async upgrade(request, socket, head, mount) {
      const path = withoutTrailingSlashes(new URL(request.url ?? '/', 'http://upgrade.invalid').pathname);
      const serving = options.rooms.find((room) => room.upgrade?.matches(path));
      if (!serving) return false;
      await serving.upgrade!.handle(request, socket, head, mount);
      return true;
    },
  };
}

/** The error body of the interface that answered (problem+json, or the legacy interface's). */
export function failure(error: unknown, api: InterfaceName | null, pathname: string): Response {
  return errorToResponse(error, {
    style: errorStyleOf(api),
    instance: pathname,
    onUnexpected: (unexpected) => console.error('relay-emulator: unexpected error', unexpected),
  });
}

const NO_CONTEXT: RequestContext = Object.freeze({});

/** A call for one handler mounted outside the core (createRpcHandler, withCors): the same object the core makes. */
export function createCall<D>(request: Request, context: RequestContext, deps: D, maxBodyBytes: number): Call<D> {
  const call = new CoreCall(request, context, freshVars(), maxBodyBytes);
  call.deps = deps;
  return call as Call<D>;
}
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * A request's call. The URL is parsed and the body read only when a handler asks (most never ask
 * for the URL). A class, so that its getter and method live on the prototype: an object literal
 * would make both afresh for every request.
 */
class CoreCall implements Call {
  params: Record<string, string> = NO_PARAMS;
  deps: unknown = undefined;
  #body: Promise<unknown> | undefined;
  #url: URL | undefined;

  constructor(
    readonly request: Request,
    readonly requestContext: RequestContext,
    readonly vars: RequestVars,
    readonly maxBodyBytes: number,
  ) {}

  get url(): URL {
    return (this.#url ??= new URL(this.request.url));
  }

  body(): Promise<unknown> {
    return (this.#body ??= readJsonBody(this.request, { maxBytes: this.maxBodyBytes, context: this.requestContext, vars: this.vars }));
  }
}

async function choose(matches: readonly RouteMatch<unknown>[], call: Call, routes: Map<Route<unknown>, Mounted>): Promise<RouteMatch<unknown>> {
  for (const match of matches) {
    if (!match.route.accepts) return match;
    call.params = match.params;
    call.deps = routes.get(match.route)!.deps;
    if (await match.route.accepts(call)) return match;
  }
  return matches[matches.length - 1]!;
}
