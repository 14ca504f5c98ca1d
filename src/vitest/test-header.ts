import { subscribe } from 'node:diagnostics_channel';
import { COST_LABEL_ENCODING_HEADER, COST_LABEL_HEADER, TEST_LABELS } from '../domain/relay/cost-labels.ts';

/** Printable ASCII: what a header value carries as it is; anything else goes percent-encoded. */
const PLAIN = /^[\x20-\x7e]*$/;
const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]']);
const SUBSCRIBED = Symbol.for('relay-emulator.test-header');

/** Whether a request to `host` stays on this machine (a test's own emulator, in process or started beside it). */
function isLoopback(host: string | undefined): boolean {
  if (host === undefined) return false;
  const bare = host.toLowerCase();
  return LOOPBACK_HOSTS.has(bare) || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** The header pair that names `label`: as it is, or percent-encoded with the encoding said. */
function headersOf(label: string): [string, string][] {
  return PLAIN.test(label)
    ? [[COST_LABEL_HEADER, label]]
    : [
        [COST_LABEL_HEADER, encodeURIComponent(label)],
        [COST_LABEL_ENCODING_HEADER, 'percent'],
      ];
}

/**
 * Names the running test (TEST_LABELS, by async context) on every request a test's code sends to a
 * loopback address, through Node's diagnostics channels: fetch (undici's `undici:request:create`,
 * what kit and gill use) and node:http (`http.client.request.created`, what web3.js 1.x and axios
 * use; Node 22.12 and later: Node 20 publishes none before the headers are written). So a
 * relay that reaches the emulator over a socket, where the test's async context does not follow, is
 * still charged to the test that sent it, under `test.concurrent` too. A header the request already
 * has is left as it is; requests to other hosts carry nothing. Subscribed once per process.
 */
export function nameRequestsByTest(): void {
  const global = globalThis as Record<symbol, unknown>;
  if (global[SUBSCRIBED]) return;
  global[SUBSCRIBED] = true;
  subscribe('undici:request:create', (message) => {
    const label = TEST_LABELS.getStore();
    const request = (message as { request?: { origin?: string; addHeader?: (name: string, value: string) => void; headers?: unknown } }).request;
    if (label === undefined || !request?.addHeader || request.origin === undefined) return;
    let host: string;
    try {
      host = new URL(request.origin).hostname;
    } catch {
      return;
    }
    if (!isLoopback(host) || hasHeader(request.headers, COST_LABEL_HEADER)) return;
    for (const [name, value] of headersOf(label)) request.addHeader(name, value);
  });
  // Node 22.12 and later tell a node:http request before its headers are written; Node 20 only after.
  subscribe('http.client.request.created', (message) => {
    const label = TEST_LABELS.getStore();
    const request = (
      message as { request?: { host?: string; headersSent?: boolean; getHeader(name: string): unknown; setHeader(name: string, value: string): void } }
    ).request;
    if (label === undefined || !request || request.headersSent || !isLoopback(request.host)) return;
    if (request.getHeader(COST_LABEL_HEADER) !== undefined) return;
    try {
      for (const [name, value] of headersOf(label)) request.setHeader(name, value);
    } catch {
      // Its headers were already written (built from an array of headers): it goes unnamed.
    }
  });
}

/** Whether undici's request headers (a flat array of names and values, or a string) already name `name`. */
function hasHeader(headers: unknown, name: string): boolean {
  if (Array.isArray(headers)) return headers.some((entry, index) => index % 2 === 0 && String(entry).toLowerCase() === name);
  if (typeof headers === 'string') return headers.toLowerCase().includes(`${name}:`);
  return false;
}
