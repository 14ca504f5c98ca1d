import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bufferIncomingBody } from '../http/buffered-bodies.ts';
import { rememberSocketAddress } from '../http/client-address.ts';
import { rememberNativeHeaders } from '../http/request-header.ts';
import { LOOPBACK_MOUNT, rememberMount, type ServerMount } from '../http/server-mount.ts';
import type { RelayEmulator } from '../emulator.ts';

export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;

/**
 * The node adapter: @hono/node-server's request listener around the emulator's one `fetch`. What
 * node already parsed is kept beside the Request, so that the core need not parse it again: the
 * socket's address (src/http/client-address.ts, taking precedence over any X-Forwarded-For the
 * client sent), the header record (src/http/request-header.ts) and the body
 * (src/http/buffered-bodies.ts), and the listener's names (`mount`, src/http/server-mount.ts; default:
 * loopback names only), which the control routes check requests against. Until `emulatorOf()`
 * answers one, requests get 503 `starting`.
 */
export function createNodeListener(emulatorOf: () => RelayEmulator | null, mount: ServerMount = LOOPBACK_MOUNT): NodeListener {
  return getRequestListener((request, env) => {
    const emulator = emulatorOf();
    if (!emulator) return Response.json({ status: 'starting' }, { status: 503, headers: { 'Retry-After': '1' } });
    if (!('incoming' in env)) return emulator.fetch(request);
    const incoming = env.incoming as IncomingMessage;
    if (incoming.socket.remoteAddress) rememberSocketAddress(request, incoming.socket.remoteAddress);
    rememberMount(request, mount);
    rememberNativeHeaders(request, incoming.headers);
    const reading = bufferIncomingBody(request, incoming, emulator.config.maxBodyBytes + 1);
    return reading ? reading.then(() => emulator.fetch(request)) : emulator.fetch(request);
  }) as NodeListener;
}
