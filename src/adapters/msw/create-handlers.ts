import { createRequire } from 'node:module';
import type { HttpHandler } from 'msw';
import type { FetchHandler } from '../../base/http/exchange.ts';

export interface HandlerUrls {
  /** The relay's base URL, `/api` included. */
  baseUrl: string;
  /** The JSON-RPC endpoint. */
  rpcUrl: string;
  /** Kora's JSON-RPC endpoint, when it lives elsewhere than `/kora` of the base URL's origin. */
  koraUrl?: string;
  /** The loopback listener's origin (`http://127.0.0.1:<port>`), or null/absent when there is none. */
  loopbackOrigin?: string | null;
  /** The loopback listener's second port's origin (the RPC's port + 1, where web3.js looks for PubSub), or null/absent. */
  pubsubOrigin?: string | null;
  /**
   * The paths of the routes at the origin's root, as the router has them (the emulator passes its
   * own). Default: the emulator's, as of this version (`/health`, `/openapi.yaml`, `/docs`,
   * `/__emulator/…`, and the web UI's `/`, `/ui/…`, `/tx/…`, `/address/…`, `/account/…`).
   */
  rootPaths?: readonly string[];
}

/** Kora's JSON-RPC (issue 27) at every origin the emulator answers. */
const KORA_PATHS = ['/kora', '/liveness'];

const DEFAULT_ROOT_PATHS = ['/__emulator', '/health', '/openapi.yaml', '/docs', '/ui', '/tx', '/address', '/account'];

/**
 * MSW handlers that mount the emulator's one `fetch`: everything under the base URL, the RPC URL,
 * the emulator's own routes (controls, docs, the web UI) at the base URL's origin, and everything at the loopback listener's
 * origin (both its ports). A WebSocket handshake to the loopback listener (made with `http.request`,
 * as the `ws` package does, which MSW intercepts) passes through to the real socket: MSW cannot
 * answer one.
 */
export function createHandlers(fetch: FetchHandler, urls: HandlerUrls): HttpHandler[] {
  const { http, passthrough } = loadMsw();
  const base = urls.baseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const forward = ({ request }: { request: Request }) => fetch(request);
  // Regular expressions without capture groups: MSW decodes the params of string paths and answers a
  // malformed escape (`/api/app/%/1/config`) with its own 500; the emulator's router answers it 404.
  // The web UI too (its page at `/`, `/tx/…`, `/address/…`, its files under `/ui/`), so that the
  // origin answers in process what it answers on a port.
  // Each root route's first segment, and anything under it: the router answers what it does not know.
  const firsts = new Set(
    [...(urls.rootPaths ?? DEFAULT_ROOT_PATHS), ...KORA_PATHS].map((path) => path.split('/')[1] ?? '').filter((segment) => segment !== ''),
  );
  const root = [...[...firsts].map((segment) => `/${escapeRegExp(segment)}(?:/.*)?`), '/?'].join('|');
  const handlers: HttpHandler[] = [];
  for (const listener of [urls.loopbackOrigin, urls.pubsubOrigin]) {
    if (!listener) continue;
    const authority = escapeRegExp(new URL(listener).host);
    handlers.push(
      http.all(new RegExp(`^(?:http|ws)://${authority}(?:[/?].*)?$`, 'i'), ({ request }) =>
        request.headers.get('upgrade')?.toLowerCase() === 'websocket' ? passthrough() : fetch(request),
      ),
    );
  }
  return [
    ...handlers,
    http.all(new RegExp(`^${escapeRegExp(base)}(?:/.*)?$`, 'i'), forward),
    http.all(urls.rpcUrl, forward),
    ...(urls.koraUrl ? [http.all(urls.koraUrl, forward), http.get(`${urls.koraUrl.replace(/\/+$/, '')}/liveness`, forward)] : []),
    http.all(new RegExp(`^${escapeRegExp(origin)}(?:${root})$`, 'i'), forward),
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * msw, loaded when handlers are first made (an emulator that is never mounted with MSW never loads
 * it: 120–170 ms of a cold start, BENCHMARKS.md). Synchronously, by require(): msw's `module-sync`
 * condition gives require the ES module `import 'msw'` gives, so the app's setupServer and these
 * handlers share one msw (node ≥ 20.19 requires ES modules; package.json's `engines` says so).
 */
function loadMsw(): typeof import('msw') {
  return (msw ??= createRequire(import.meta.url)('msw') as typeof import('msw'));
}
let msw: typeof import('msw') | undefined;
