/**
 * The address of the peer that sent a request, when a server adapter knows it. Kept beside the
 * Request rather than written into its headers: mutating the headers of @hono/node-server's
 * lightweight Request costs a full copy on every request.
 */
const socketAddresses = new WeakMap<Request, string>();

export function rememberSocketAddress(request: Request, address: string): void {
  socketAddresses.set(request, address.replace(/^::ffff:/, ''));
}

/**
 * Who sent a request: the socket's address when served over a port (a client-sent
 * X-Forwarded-For is then ignored, so it cannot be spoofed), else the first X-Forwarded-For
 * address, else X-Real-IP, else null (in process, under MSW).
 */
export function clientAddressOf(request: Request): string | null {
  const socket = socketAddresses.get(request);
  if (socket !== undefined) return socket;
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || request.headers.get('x-real-ip')?.trim() || null;
}
