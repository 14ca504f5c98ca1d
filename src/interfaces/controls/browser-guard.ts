import { RelayError } from '../../base/errors/relay-error.ts';
import { headerOf } from '../../base/http/request-header.ts';
import type { RequestContext } from '../../base/http/request-context.ts';
import { bareHost, isLoopbackName, type ServerMount } from '../../base/http/server-mount.ts';

/**
 * Whether a request that came in over a socket may reach the control routes (`/__emulator/…`):
 * the checks a browser page cannot get around.
 *
 * On an open bind (loopback, no X-Admin-Token), where the bind is all that keeps others out:
 * - **Host** must be one of the listener's names (loopback names, the name bound to, the public
 *   URL's host): a page on a name the attacker controls whose DNS answer moves to 127.0.0.1 (DNS
 *   rebinding) sends its own name as Host. 403 HOST_NOT_ALLOWED. (Behind a token, a page cannot
 *   know the token, and containers call the emulator by names nobody configured.)
 * - **Forwarded**: a request whose X-Forwarded-For, Forwarded or X-Real-IP names an address that
 *   is not loopback came through a proxy from another machine, which the loopback bind was meant
 *   to keep out. 403 CONTROL_FORWARDED. A forwarded header never opens anything: a client that
 *   sends a false one only refuses itself.
 *
 * On every bind:
 * - **Origin**, when sent, must be the server's own (an http Origin whose host and port are the
 *   Host's: the emulator's own pages) or one of the mount's `controlOrigins`. Without Origin, a
 *   browser's `Sec-Fetch-Site: cross-site | same-site` is refused too. Other clients send
 *   neither. 403 ORIGIN_NOT_ALLOWED.
 *
 * Answers the Origin to allow in CORS headers (null when the request sent none).
 */
export function checkControlRequest(request: Request, context: RequestContext, mount: ServerMount, options: { open: boolean }): string | null {
  const host = parseHost(headerOf(request, context, 'host'));
  if (options.open && (host === null || !hostAllowed(host.name, mount))) {
    throw new RelayError(
      'HOST_NOT_ALLOWED',
      `Host "${headerOf(request, context, 'host') ?? ''}" is not a name of this emulator; call it by 127.0.0.1, localhost or its --public-url.`,
    );
  }
  if (options.open) {
    const remote = forwardedAddresses(request, context).find((address) => !isLoopbackName(bareHost(address)));
    if (remote !== undefined) {
      throw new RelayError(
        'CONTROL_FORWARDED',
        `This request was forwarded for ${remote}; on a loopback bind the control routes answer this machine only (bind another address and use ` +
          `X-Admin-Token).`,
      );
    }
  }
  const origin = headerOf(request, context, 'origin');
  if (origin === null) {
    const site = headerOf(request, context, 'sec-fetch-site');
    if (site === 'cross-site' || site === 'same-site') throw foreignOrigin(`a ${site} page`);
    return null;
  }
  if (mount.controlOrigins.has(origin) || (host !== null && isSameOrigin(origin, host))) return origin;
  throw foreignOrigin(`Origin ${origin}`);
}

function foreignOrigin(who: string): RelayError {
  return new RelayError(
    'ORIGIN_NOT_ALLOWED',
    `The control routes refuse ${who}: only the emulator's own pages (and --control-origin) may call them from a browser.`,
  );
}

interface HostHeader {
  /** Lower-case, without brackets, as a URL normalizes it (`0x7f.1` is `127.0.0.1`). */
  name: string;
  /** The port as sent; '' when none was. */
  port: string;
}

function parseHost(header: string | null): HostHeader | null {
  if (header === null) return null;
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{0,5}))?$/.exec(header.trim());
  if (!match || match[1] === '') return null;
  try {
    return { name: bareHost(new URL(`http://${match[1]}`).hostname), port: match[2] ?? '' };
  } catch {
    return null;
  }
}

function hostAllowed(name: string, mount: ServerMount): boolean {
  return isLoopbackName(name) || mount.hostNames.has(name);
}

/**
 * The Origin is this server's: http (what the listener speaks; a TLS proxy in front is the public
 * URL's origin, trusted as such), with the Host's name and port (80 when either names none).
 */
function isSameOrigin(origin: string, host: HostHeader): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (sandboxed frames, file: pages) and anything malformed.
  }
  return url.protocol === 'http:' && url.origin === origin && bareHost(url.hostname) === host.name && (url.port || '80') === (host.port || '80');
}

/** Every client address a proxy named: X-Forwarded-For (all hops), Forwarded's `for=`, X-Real-IP. */
function forwardedAddresses(request: Request, context: RequestContext): string[] {
  const addresses: string[] = [];
  for (const part of (headerOf(request, context, 'x-forwarded-for') ?? '').split(',')) if (part.trim()) addresses.push(part.trim());
  for (const match of (headerOf(request, context, 'forwarded') ?? '').matchAll(/for=("?)([^;,"]*)\1/gi)) addresses.push(withoutPort(match[2]!.trim()));
  const real = headerOf(request, context, 'x-real-ip')?.trim();
  if (real) addresses.push(real);
  return addresses;
}

/** `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.43:47011` → `192.0.2.43`. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1]!;
  return /^[^:]+:\d+$/.test(address) ? address.slice(0, address.lastIndexOf(':')) : address;
}
