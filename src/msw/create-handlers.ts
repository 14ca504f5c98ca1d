import { http, type HttpHandler } from 'msw';
import type { FetchHandler } from '../core/create-fetch.ts';

/**
 * MSW handlers that mount the emulator's one `fetch`: everything under the base URL, the RPC URL,
 * and the emulator's own routes (controls, docs, the web UI) at the base URL's origin.
 */
export function createHandlers(fetch: FetchHandler, urls: { baseUrl: string; rpcUrl: string }): HttpHandler[] {
  const base = urls.baseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const forward = ({ request }: { request: Request }) => fetch(request);
  // Regular expressions without capture groups: MSW decodes the params of string paths and answers a
  // malformed escape (`/api/app/%/1/config`) with its own 500; the emulator's router answers it 404.
  // The web UI too (its page at `/`, `/tx/…`, `/address/…`, its files under `/ui/`), so that the
  // origin answers in process what it answers on a port.
  const root = [...['/__emulator', '/health', '/openapi.yaml', '/docs', '/ui', '/tx', '/address'].map((path) => `${escapeRegExp(path)}(?:/.*)?`), '/?'].join('|');
  return [
    http.all(new RegExp(`^${escapeRegExp(base)}(?:/.*)?$`, 'i'), forward),
    http.all(urls.rpcUrl, forward),
    http.all(new RegExp(`^${escapeRegExp(origin)}(?:${root})$`, 'i'), forward),
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
