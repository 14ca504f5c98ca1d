import { knownRequestFacts, requestFacts } from './request-facts.ts';
import { headerOf } from './request-header.ts';

/**
 * The address of the peer that sent a request, when a server adapter knows it. Kept beside the
 * Request rather than written into its headers: mutating the headers of @hono/node-server's
 * lightweight Request costs a full copy on every request.
 */
export function rememberSocketAddress(request: Request, address: string): void {
  requestFacts(request).socketAddress = address;
}

/**
 * Who sent a request: the socket's address when served over a port (a client-sent
 * X-Forwarded-For is then ignored, so it cannot be spoofed), else the first X-Forwarded-For
 * address, else X-Real-IP, else null (in process, under MSW).
 */
export function clientAddressOf(request: Request): string | null {
  const socket = knownRequestFacts(request)?.socketAddress;
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d; the journal shows a.b.c.d.
  if (socket !== undefined) return socket.startsWith('::ffff:') ? socket.slice(7) : socket;
  const forwarded = headerOf(request, 'x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || headerOf(request, 'x-real-ip')?.trim() || null;
}
