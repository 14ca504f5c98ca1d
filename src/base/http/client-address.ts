import type { RequestContext } from './request-context.ts';
import { headerOf } from './request-header.ts';

/**
 * Who sent a request: the socket's address when served over a port (a client-sent
 * X-Forwarded-For is then ignored, so it cannot be spoofed), else the first X-Forwarded-For
 * address, else X-Real-IP, else null (in process, under MSW).
 */
export function clientAddressOf(request: Request, context: RequestContext): string | null {
  const socket = context.socketAddress;
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d; the journal shows a.b.c.d.
  if (socket !== undefined) return socket.startsWith('::ffff:') ? socket.slice(7) : socket;
  const forwarded = headerOf(request, context, 'x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || headerOf(request, context, 'x-real-ip')?.trim() || null;
}
