import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bufferIncomingBody } from '../../base/http/buffered-bodies.ts';
import type { RequestContext } from '../../base/http/request-context.ts';
import { LOOPBACK_MOUNT, type ServerMount } from '../../base/http/server-mount.ts';
import type { ServedCore } from '../../core/served-core.ts';
import { withoutTrailingSlashes } from '../../base/http/request-url.ts';

export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;

/** What the listener serves: the emulator once it is ready (state restored), and a promise of it until then (null: it never will be). */
export interface ServingGate {
  emulator: ServedCore | null;
  ready: Promise<ServedCore | null>;
}

/**
 * The node adapter: @hono/node-server's request listener around the emulator's one `fetch`. What
 * node already parsed is handed to it in the request's context, so that the core need not parse
 * it again: the
 * socket's address (src/base/http/client-address.ts, taking precedence over any X-Forwarded-For the
 * client sent), the header record (src/base/http/request-header.ts) and the body
 * (src/base/http/buffered-bodies.ts), and the listener's names (`mount`, src/base/http/server-mount.ts; default:
 * loopback names only), which the control routes check requests against.
 *
 * Until the emulator is ready (created, and its state file restored), GET /health answers 503
 * `{"status": "starting"}` and every other request waits for it: nothing is served from a state
 * that is still loading.
 */
export function createNodeListener(gate: ServingGate, mount: ServerMount = LOOPBACK_MOUNT): NodeListener {
  const listener = getRequestListener((request, env) => {
    const emulator = gate.emulator;
    if (emulator) return serve(emulator, request, env, mount);
    if (withoutTrailingSlashes(new URL(request.url).pathname) === '/health') return starting();
    return gate.ready.then((ready) => (ready ? serve(ready, request, env, mount) : starting()));
  }) as NodeListener;
  return (incoming, outgoing) => {
    canonicalHost(incoming);
    return listener(incoming, outgoing);
  };
}

function serve(emulator: ServedCore, request: Request, env: unknown, mount: ServerMount): Promise<Response> {
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return emulator.fetch(request);
  const incoming = env.incoming as IncomingMessage;
  const context: RequestContext = { socketAddress: incoming.socket.remoteAddress, mount, nativeHeaders: incoming.headers };
  const reading = bufferIncomingBody(context, incoming, emulator.config.maxBodyBytes + 1);
  return reading ? reading.then(() => emulator.fetch(request, context)) : emulator.fetch(request, context);
}

function starting(): Response {
  return Response.json({ status: 'starting' }, { status: 503, headers: { 'Retry-After': '1' } });
}

/** Host headers seen lately and their canonical forms (a server sees few). */
const canonicalHosts = new Map<string, string | null>();
const CANONICAL_HOSTS_LIMIT = 64;

/**
 * @hono/node-server answers an empty 400 to a Host that URL parsing would rewrite (`Relay.Local`,
 * `127.1`), on every route. Such a Host names the same server as its canonical form, which is what
 * the URL and the control routes' Host check then see; one that does not parse is left to hono.
 */
function canonicalHost(incoming: IncomingMessage): void {
  const host = incoming.headers.host;
  if (!host) return;
  let canonical = canonicalHosts.get(host);
  if (canonical === undefined) {
    canonical = canonicalOf(host);
    if (canonicalHosts.size >= CANONICAL_HOSTS_LIMIT) canonicalHosts.clear();
    canonicalHosts.set(host, canonical);
  }
  if (canonical !== null && canonical !== host) incoming.headers.host = canonical;
}

function canonicalOf(host: string): string | null {
  try {
    const canonical = new URL(`http://${host}`).host;
    // URL drops a default port; keep the port the client named.
    const port = /:(\d+)$/.exec(host)?.[1];
    return port && !canonical.endsWith(`:${port}`) ? `${canonical}:${port}` : canonical;
  } catch {
    return null; // Not a host at all: hono answers it 400.
  }
}
