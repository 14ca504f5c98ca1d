import { authenticate } from '../domain/auth/authenticate.ts';
import { RelayError } from '../base/errors/relay-error.ts';
import { errorToResponse, problemOf } from '../base/http/error-response.ts';
import { readJsonBody } from '../base/http/read-json-body.ts';
import { pathnameOf, withoutTrailingSlashes } from '../base/http/request-url.ts';
import { respond } from '../base/http/respond.ts';
import type { Exchange, FetchHandler } from '../base/http/exchange.ts';
import type { RequestContext } from '../base/http/request-context.ts';
import { errorStyleOf, type Route, type RouteContext, type RouteMatch, type Router } from '../base/http/router.ts';
import type { EmulatorServices } from '../assembly/services.ts';

export type EmulatorRoute = Route<EmulatorServices>;
export type { Exchange, ExchangeObserver, FetchHandler } from '../base/http/exchange.ts';

export interface CoreOptions {
  services: EmulatorServices;
  /** Routes under the base URL's path: the current and legacy interfaces. */
  api: Router<EmulatorServices>;
  /** Routes at the origin's root: /health, /docs, /__emulator/… */
  root: Router<EmulatorServices>;
  /** The JSON-RPC endpoint at `rpcUrl`. */
  rpc: FetchHandler | null;
  /** Kora's JSON-RPC at `koraUrl`, and at `/kora` and `GET /liveness` of every origin. */
  kora?: FetchHandler | null;
}

/**
 * The emulator's single core: a fetch-style function from Request to Response. MSW handlers and
 * the node server both mount exactly this function, so no route is written twice. A response
 * leaves only once the state changes made before it are durable (see ChangeFeed.durable). What it
 * learns on the way (the route's interface and operation, a refusal's problem) it records in the
 * request's context, for the observers (src/core/observe-exchanges.ts).
 */
export function createFetch(options: CoreOptions): FetchHandler {
  const { services } = options;
  const rpcPath = withoutTrailingSlashes(new URL(services.config.rpcUrl).pathname);
  const kora = new URL(services.config.koraUrl);
  const koraUrl = { path: withoutTrailingSlashes(kora.pathname), origin: kora.origin };

  return async function fetch(request: Request, context: RequestContext = {}): Promise<Response> {
    const pathname = pathnameOf(request.url);
    let api: Exchange['api'] = null;
    let operationId: string | null = null;
    let response: Response;
    // A handler that answers its own refusals (Kora's JSON-RPC errors) may name the problem in the context.
    let problem: RequestContext['problem'] = null;
    try {
      // The RPC answers at rpcUrl, and at POST / as solana-test-validator does (gill's `localnet`,
      // `solana -u localhost`); GET / is the web UI.
      // A path served outside the routers with a method it does not take: 405 with what it takes
      // (Kora's two paths, and / where GET is the web UI and POST the RPC).
      const allow = wrongMethodAllow(request.method, pathname, options);
      if (allow !== null) {
        api = pathname === '/' ? 'emulator' : 'kora';
        throw new RelayError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${allow}.`, { headers: { Allow: allow } });
      } else if (options.kora && isKora(request, withoutTrailingSlashes(pathname), koraUrl)) {
        api = 'kora';
        operationId = request.method === 'GET' ? 'koraLiveness' : 'koraJsonRpc';
        response = await options.kora(request, context);
        problem = context.problem ?? null;
      } else if (options.rpc && (withoutTrailingSlashes(pathname) === rpcPath || (pathname === '/' && request.method === 'POST'))) {
        api = 'rpc';
        operationId = 'jsonRpc';
        response = await options.rpc(request, context);
      } else {
        const router = options.api.owns(pathname) ? options.api : options.root;
        api = router === options.api ? 'current' : 'emulator';
        const call = new RouteCall(request, context, services);
        const matches = router.candidates(request.method, pathname);
        const { route, params } = matches[0]!.route.accepts ? await choose(matches, call) : matches[0]!;
        api = route.api;
        operationId = route.operationId;
        call.params = params;
        if (route.api === 'current') {
          const verifying = authenticate(request, context, services);
          if (verifying) await verifying;
          services.rateLimiter?.take(request, context);
        }
        response = await route.handle(call);
      }
    } catch (error) {
      // An unknown path under the base URL answers in the style of the interface it looks like:
      // the legacy SDK reads `message` from a 404 (`/api/transaction/<unknown>`).
      if (api === 'current' && error instanceof RelayError && error.code === 'ROUTE_NOT_FOUND') api = options.api.interfaceOf(pathname) ?? api;
      response = failure(error, api, pathname);
      problem = problemOf(error);
    }
    // Nothing is answered before the state changes made so far are durable (a state file's
    // journal; without one there is never anything pending). A write that fails is a 500.
    if (services.changes.pending) {
      try {
        await services.changes.durable();
      } catch (error) {
        response = failure(error, api, pathname);
        problem = problemOf(error);
      }
    }
    if (request.method === 'HEAD') response = respond(null, { status: response.status, headers: response.headers });
    context.api = api;
    context.operationId = operationId;
    context.problem = problem;
    return response;
  };
}

/** The Allow header for a method that `/kora`, `/liveness` or `/` do not take, or null. */
function wrongMethodAllow(method: string, pathname: string, options: { kora?: FetchHandler | null; rpc?: FetchHandler | null }): string | null {
  if (options.kora && pathname === '/kora' && method !== 'POST') return 'POST';
  if (options.kora && pathname === '/liveness' && method !== 'GET' && method !== 'HEAD') return 'GET';
  if (options.rpc && pathname === '/' && method !== 'GET' && method !== 'HEAD' && method !== 'POST') return 'GET, POST';
  return null;
}

/**
 * Kora answers at koraUrl itself (origin and path: an app may name any URL, `/` or `/rpc` of its
 * own host included), and at `/kora` and `GET /liveness` of every origin the emulator serves. The
 * path is compared first: most requests are told apart without parsing their URL.
 */
function isKora(request: Request, pathname: string, koraUrl: { path: string; origin: string }): boolean {
  const liveness = request.method === 'GET';
  if (pathname === (liveness ? '/liveness' : '/kora')) return true;
  if (pathname !== (liveness ? `${koraUrl.path === '/' ? '' : koraUrl.path}/liveness` : koraUrl.path)) return false;
  return new URL(request.url).origin === koraUrl.origin;
}

function failure(error: unknown, api: Exchange['api'], pathname: string): Response {
  return errorToResponse(error, {
    style: errorStyleOf(api === 'rpc' || api === 'kora' ? 'current' : (api ?? undefined)),
    instance: pathname,
    onUnexpected: (unexpected) => console.error('relay-emulator: unexpected error', unexpected),
  });
}

/**
 * A route's view of the request. The URL is parsed and the body read only when a route asks (most
 * never ask for the URL). A class, so that its getter and method live on the prototype: an object
 * literal would make both afresh for every request.
 */
class RouteCall implements RouteContext<EmulatorServices> {
  params: Record<string, string> = NO_PARAMS;
  #body: Promise<unknown> | undefined;
  #url: URL | undefined;

  constructor(
    readonly request: Request,
    readonly requestContext: RequestContext,
    readonly services: EmulatorServices,
  ) {}

  get url(): URL {
    return (this.#url ??= new URL(this.request.url));
  }

  body(): Promise<unknown> {
    return (this.#body ??= readJsonBody(this.request, { maxBytes: this.services.config.maxBodyBytes, context: this.requestContext }));
  }
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

async function choose(matches: readonly RouteMatch<EmulatorServices>[], context: RouteContext<EmulatorServices>): Promise<RouteMatch<EmulatorServices>> {
  for (const match of matches) {
    if (!match.route.accepts) return match;
    context.params = match.params;
    if (await match.route.accepts(context)) return match;
  }
  return matches[matches.length - 1]!;
}
