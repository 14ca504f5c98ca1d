import { RelayError } from '../errors/relay-error.ts';
import type { ErrorStyle } from '../errors/to-response.ts';

/** Which interface a route belongs to; decides authentication and the error body. */
export type Api = 'current' | 'legacy' | 'emulator' | 'meta';

export interface RouteContext<S> {
  request: Request;
  url: URL;
  params: Record<string, string>;
  services: S;
  /** The JSON body, read once under the size cap (see readJsonBody). */
  body(): Promise<unknown>;
}

export interface Route<S> {
  method: string;
  /** Path relative to the mount, with `{name}` captures, e.g. `/account/balance/{environment}/{index}/{accountId}`. */
  path: string;
  api: Api;
  operationId: string;
  /** When two routes share a method and path, the first whose guard accepts the request wins. */
  accepts?: (context: RouteContext<S>) => Promise<boolean>;
  handle(context: RouteContext<S>): Promise<Response>;
}

export function errorStyleOf(api: Api | undefined): ErrorStyle {
  return api === 'legacy' ? 'legacy' : 'problem';
}

interface CompiledRoute<S> {
  route: Route<S>;
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
 */
export class Router<S> {
  readonly #routes: CompiledRoute<S>[] = [];

  constructor(readonly mount: string = '') {}

  add(...routes: Route<S>[]): this {
    for (const route of routes) {
      const segments = split(this.mount + route.path).map((segment) => (segment.startsWith('{') ? segment : segment.toLowerCase()));
      this.#routes.push({ route, segments });
    }
    return this;
  }

  /** Candidates for a request, or a RelayError (404/405). `api` of the nearest route helps pick the error body. */
  candidates(method: string, pathname: string): RouteMatch<S>[] {
    const segments = split(pathname);
    const lowered = segments.map((segment) => segment.toLowerCase());
    const matches: RouteMatch<S>[] = [];
    const allowed = new Set<string>();
    for (const { route, segments: pattern } of this.#routes) {
      const params = matchSegments(pattern, segments, lowered);
      if (!params) continue;
      allowed.add(route.method);
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) matches.push({ route, params });
    }
    if (matches.length > 0) return matches;
    if (allowed.size > 0) {
      const allow = [...allowed].join(', ');
      throw new RelayError('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allow}.`, { headers: { Allow: allow } });
    }
    throw new RelayError('ROUTE_NOT_FOUND', `No route matches ${method} ${pathname}.`);
  }

  /** True when some route lives under this path prefix (used to pick a mount for 404s). */
  owns(pathname: string): boolean {
    const prefix = split(this.mount);
    const segments = split(pathname);
    return prefix.every((segment, index) => segments[index]?.toLowerCase() === segment.toLowerCase());
  }
}

function split(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
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
