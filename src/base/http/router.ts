import { RelayError } from '../errors/relay-error.ts';
import type { ErrorStyle } from './error-response.ts';
import type { Api, InterfaceName, RequestContext, RequestVars } from './request-context.ts';

export type { Api } from './request-context.ts';

/**
 * A route's and a middleware's view of one request: what the adapter gave (read-only), the
 * request's store, and the dependencies of the interface that answers it (`deps`, the narrow object
 * each interface asks for; never the whole emulator).
 */
export interface Call<D = unknown> {
  readonly request: Request;
  /** What the server adapter knows of the request beside it (src/base/http/request-context.ts). */
  readonly requestContext: RequestContext;
  /** What the core and the middleware learn on the way: interface, operation, refusal, body text. */
  readonly vars: RequestVars;
  readonly url: URL;
  params: Record<string, string>;
  deps: D;
  /** The JSON body, read once under the size cap (see readJsonBody). Call it on the call: `call.body()`. */
  body(this: Call<D>): Promise<unknown>;
}

/** The name routes have used for their argument: the same object. */
export type RouteContext<D> = Call<D>;

export interface Route<D> {
  method: string;
  /** Path relative to the mount, with `{name}` captures, e.g. `/account/balance/{environment}/{index}/{accountId}`. */
  path: string;
  api: Api;
  operationId: string;
  /** When two routes share a method and path, the first whose guard accepts the request wins. */
  accepts?(context: Call<D>): Promise<boolean>;
  handle(context: Call<D>): Promise<Response>;
}

export function errorStyleOf(api: InterfaceName | null | undefined): ErrorStyle {
  return api === 'legacy' ? 'legacy' : 'problem';
}

interface CompiledRoute<S> {
  route: Route<S>;
  /** Position in the order routes were added: the first of several matches wins. */
  order: number;
  /** Literal segments lower-cased once; `{name}` captures kept as written. */
  segments: string[];
}

export interface RouteMatch<S> {
  route: Route<S>;
  params: Record<string, string>;
}

/**
 * Case-insensitive path matching (the real service is ASP.NET, whose routing ignores case),
 * with 404 for an unknown path and 405 with `Allow` for a known path and the wrong method.
 * Paths without captures are found by one map look-up; only routes with captures are scanned.
 */
export class Router<S> {
  /** Routes without captures, by their lower-cased path (empty segments dropped). */
  readonly #literal = new Map<string, CompiledRoute<S>[]>();
  readonly #patterns: CompiledRoute<S>[] = [];
  readonly #mountKey: string;
  /** `#mountKey` and a slash: the prefix of every path under the mount. */
  readonly #mountPrefix: string;
  /** Literal routes' paths answered before (see #planFor); emptied whenever a route is added. */
  readonly #plans = new Map<string, LiteralPlan<S> | null>();
  #count = 0;

  constructor(readonly mount: string = '') {
    this.#mountKey = pathKey(mount);
    this.#mountPrefix = `${this.#mountKey}/`;
  }

  add(...routes: Route<S>[]): this {
    this.#plans.clear();
    for (const route of routes) {
      const segments = split(this.mount + route.path).map((segment) => (segment.startsWith('{') ? segment : segment.toLowerCase()));
      const compiled = { route, order: this.#count++, segments };
      if (segments.some((segment) => segment.startsWith('{'))) this.#patterns.push(compiled);
      else {
        const key = `/${segments.join('/')}`;
        this.#literal.set(key, [...(this.#literal.get(key) ?? []), compiled]);
      }
    }
    return this;
  }

  /**
   * Candidates for a request, in the order their routes were added, or a RelayError (404/405).
   * The answer may be shared between requests: callers must not change it.
   */
  candidates(method: string, pathname: string): readonly RouteMatch<S>[] {
    const key = pathKey(pathname);
    const plan = this.#planFor(key);
    if (plan) {
      const matches = plan.byMethod.get(method);
      if (matches) return matches;
      throw methodNotAllowed(method, plan.allow);
    }
    return this.#scan(method, pathname, key);
  }

  /**
   * The answer for a literal path, worked out once: its routes by method. Null when the path is
   * not literal, or when a route with captures matches it too (the scan then gives the captures).
   */
  #planFor(key: string): LiteralPlan<S> | null {
    let plan = this.#plans.get(key);
    if (plan !== undefined) return plan;
    // Only paths of literal routes are remembered: any other path a client sends is not (the
    // map would grow with every unknown path).
    const literal = this.#literal.get(key);
    if (!literal) return null;
    const segments = split(key);
    plan = null;
    if (!this.#patterns.some((compiled) => matchSegments(compiled.segments, segments, segments))) {
      const byMethod = new Map<string, RouteMatch<S>[]>();
      for (const { route } of literal) {
        for (const method of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) {
          byMethod.set(method, [...(byMethod.get(method) ?? []), { route, params: NO_PARAMS }]);
        }
      }
      plan = { byMethod, allow: [...new Set(literal.map(({ route }) => route.method))].join(', ') };
    }
    this.#plans.set(key, plan);
    return plan;
  }

  #scan(method: string, pathname: string, key: string): RouteMatch<S>[] {
    const found: { match: RouteMatch<S>; order: number }[] = [];
    const allowed = new Set<string>();
    const accepts = (route: Route<S>) => route.method === method || (method === 'HEAD' && route.method === 'GET');
    for (const compiled of this.#literal.get(key) ?? []) {
      allowed.add(compiled.route.method);
      if (accepts(compiled.route)) found.push({ match: { route: compiled.route, params: {} }, order: compiled.order });
    }
    const segments = split(pathname);
    const lowered = segments.map((segment) => segment.toLowerCase());
    for (const compiled of this.#patterns) {
      const params = matchSegments(compiled.segments, segments, lowered);
      if (!params) continue;
      allowed.add(compiled.route.method);
      if (accepts(compiled.route)) found.push({ match: { route: compiled.route, params }, order: compiled.order });
    }
    if (found.length > 0) return found.sort((a, b) => a.order - b.order).map(({ match }) => match);
    if (allowed.size > 0) throw methodNotAllowed(method, [...allowed].join(', '));
    throw RelayError.of('ROUTE_NOT_FOUND', { method, path: pathname });
  }

  /** How many paths' answers are remembered (bounded by the literal routes). */
  get rememberedPaths(): number {
    return this.#plans.size;
  }

  /**
   * The interface an unknown path under the mount belongs to, for the style of its 404: that of the
   * routes whose first segment the path writes exactly as they do (the legacy interface's are
   * lower-case, `/transaction/…`, as its NestJS server wrote them; the current interface's
   * capitalized), or null when none or several interfaces write it so.
   */
  interfaceOf(pathname: string): Api | null {
    const [head] = split(pathname.slice(this.mount.length));
    const apis = new Set<Api>();
    for (const { route } of [...[...this.#literal.values()].flat(), ...this.#patterns]) {
      if (split(route.path)[0] === head) apis.add(route.api);
    }
    return apis.size === 1 ? [...apis][0]! : null;
  }

  /** True when some route lives under this path prefix (used to pick a mount for 404s). */
  owns(pathname: string): boolean {
    if (this.#mountKey === '/') return true;
    const key = pathKey(pathname);
    return key === this.#mountKey || key.startsWith(this.#mountPrefix);
  }
}

interface LiteralPlan<S> {
  byMethod: Map<string, RouteMatch<S>[]>;
  /** The Allow header for a method the path does not take. */
  allow: string;
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

function methodNotAllowed(method: string, allow: string): RelayError {
  return RelayError.of('METHOD_NOT_ALLOWED', { method, headers: { Allow: allow } });
}

function split(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

/** A path as routes are keyed: lower-cased, without empty segments (`/API//a/` is `/api/a`). */
function pathKey(path: string): string {
  // The common shape (no doubled or trailing slash) needs no split.
  if (!path.includes('//') && (path.length === 1 || !path.endsWith('/')) && path.startsWith('/')) return path.toLowerCase();
  return `/${split(path).join('/')}`.toLowerCase();
}

function matchSegments(pattern: string[], segments: string[], lowered: string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index]!;
    const actual = segments[index]!;
    if (expected.startsWith('{') && expected.endsWith('}')) {
      try {
        params[expected.slice(1, -1)] = decodeURIComponent(actual);
      } catch {
        // A malformed escape (`%`, `%zz`) stays literal, as ASP.NET leaves it: the route still
        // matches and its handler refuses the value in the route's own error style.
        params[expected.slice(1, -1)] = actual;
      }
    } else if (expected !== lowered[index]) {
      return null;
    }
  }
  return params;
}
