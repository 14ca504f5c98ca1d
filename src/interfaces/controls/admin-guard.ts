import { timingSafeEqual } from 'node:crypto';
import { RelayError } from '../../base/errors/relay-error.ts';
import { headerOf } from '../../base/http/request-header.ts';
import type { RequestContext } from '../../base/http/request-context.ts';
import { pathnameOf } from '../../base/http/request-url.ts';
import { bareHost, isLoopbackName } from '../../base/http/server-mount.ts';
import type { Middleware } from '../../core/room.ts';
import { checkControlRequest } from './browser-guard.ts';

/**
 * Who may call the `/__emulator` control routes. In process (MSW) and on a loopback bind they are
 * open: only this machine can reach them. On any other bind (0.0.0.0, ::, a LAN address) they
 * require `X-Admin-Token`. The rule is about the address the server is bound to, not the client's:
 * a server bound to 0.0.0.0 wants the token even from 127.0.0.1, because the same port is reachable
 * from the network.
 *
 * "This machine" includes its browser, and any page it shows can send requests to 127.0.0.1. So a
 * request that came in over a socket also passes the browser checks of src/interfaces/controls/browser-guard.ts
 * (Host, Origin, forwarded-for), token or not. A request made in process has no socket, and no
 * page can make one.
 */
const CONTROL_PATH = /^\/+__emulator(?:\/|$)/i;

export class AdminGuard {
  #token: Buffer | null = null;

  /** Requires `token` from now on (null opens the routes again). */
  requireToken(token: string | null): void {
    this.#token = token === null ? null : Buffer.from(token, 'utf8');
  }

  get required(): boolean {
    return this.#token !== null;
  }

  /** True for a path of the control routes: `/__emulator` and below, in any case, as the router matches them. */
  owns(pathname: string): boolean {
    return CONTROL_PATH.test(pathname);
  }

  /**
   * The browser checks, for a request that came in over a socket: throws 403 HOST_NOT_ALLOWED,
   * ORIGIN_NOT_ALLOWED or CONTROL_FORWARDED, else answers the Origin its CORS headers may name
   * (null when it sent none). Undefined for a request made in process, whose CORS stays open.
   */
  checkBrowser(request: Request, context: RequestContext): string | null | undefined {
    const mount = context.mount;
    return mount === undefined ? undefined : checkControlRequest(request, context, mount, { open: this.#token === null });
  }

  /** The token check: throws 401 ADMIN_TOKEN_REQUIRED or 403 ADMIN_FORBIDDEN when a token is required and not given. */
  check(request: Request, context: RequestContext): void {
    if (this.#token === null) return;
    const given = headerOf(request, context, 'x-admin-token');
    if (given === null || given === '') {
      throw new RelayError('ADMIN_TOKEN_REQUIRED', 'This emulator is bound to a non-loopback address: send X-Admin-Token (printed in its start-up banner).');
    }
    const bytes = Buffer.from(given, 'utf8');
    if (bytes.length !== this.#token.length || !timingSafeEqual(bytes, this.#token)) {
      throw new RelayError('ADMIN_FORBIDDEN', 'X-Admin-Token does not match the emulator’s admin token.');
    }
  }
}

/** True for addresses only this machine can reach: localhost, 127.0.0.0/8, ::1 (and their IPv4-mapped forms). */
export function isLoopbackHost(host: string): boolean {
  return isLoopbackName(bareHost(host));
}

/**
 * The admin token check as middleware, for the routes under `/__emulator` of the room that mounts
 * it (the controls', and the web UI's reads): after the route is matched, before it runs.
 */
export function adminOnly(guard: AdminGuard): Middleware {
  return (call, next) => {
    if (guard.owns(pathnameOf(call.request.url))) guard.check(call.request, call.requestContext);
    return next();
  };
}
