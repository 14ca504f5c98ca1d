import { http, type HttpHandler } from 'msw';
import type { FetchHandler } from '../core/create-fetch.ts';

/**
 * MSW handlers that mount the emulator's one `fetch`: everything under the base URL, the RPC URL,
 * and the emulator's own routes at the base URL's origin.
 */
export function createHandlers(fetch: FetchHandler, urls: { baseUrl: string; rpcUrl: string }): HttpHandler[] {
  const base = urls.baseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const forward = ({ request }: { request: Request }) => fetch(request);
  const handlers = [http.all(`${base}/*`, forward), http.all(urls.rpcUrl, forward)];
  for (const path of ['/__emulator/*', '/health', '/openapi.yaml', '/docs']) handlers.push(http.all(`${origin}${path}`, forward));
  return handlers;
}
