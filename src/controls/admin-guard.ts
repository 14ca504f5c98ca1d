import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { RelayError } from '../errors/relay-error.ts';
import { headerOf } from '../http/request-header.ts';

/**
 * Who may call the `/__emulator` control routes. In process (MSW) and on a loopback bind they are
 * open: only this machine can reach them. On any other bind (0.0.0.0, ::, a LAN address) they
 * require `X-Admin-Token`. The rule is about the address the server is bound to, not the client's:
 * a server bound to 0.0.0.0 wants the token even from 127.0.0.1, because the same port is reachable
 * from the network.
 */
export class AdminGuard {
  #token: Buffer | null = null;

  /** Requires `token` from now on (null opens the routes again). */
  requireToken(token: string | null): void {
    this.#token = token === null ? null : Buffer.from(token, 'utf8');
  }

  get required(): boolean {
    return this.#token !== null;
  }

  check(request: Request): void {
    if (this.#token === null) return;
    const given = headerOf(request, 'x-admin-token');
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
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return isIP(bare) === 6 && (bare === '::1' || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(bare));
}
