import { isIP } from 'node:net';
import type { ServerMount } from './server-mount-type.ts';

export type { ServerMount } from './server-mount-type.ts';

export interface ServerMountOptions {
  /** The address bound. */
  host: string;
  /** The origin clients use, when it differs from the bind (`publicUrl`). */
  publicUrl?: string | null;
  /** Further origins whose pages may call the control routes (`controlOrigins`). */
  controlOrigins?: readonly string[];
}

/** A listener bound to loopback, with nothing else known: loopback names only, no other origin. */
export const LOOPBACK_MOUNT: ServerMount = Object.freeze({ hostNames: new Set<string>(), controlOrigins: new Set<string>(), loopbackBind: true });

/**
 * The mount of a listener bound to `host`. A name bound to and the public URL's host are its
 * names, besides the loopback ones. The public URL's origin may drive the controls (a TLS proxy in
 * front of the emulator makes pages of that origin while the Host it forwards is the bind's).
 */
export function serverMount(options: ServerMountOptions): ServerMount {
  const hostNames = new Set<string>();
  const controlOrigins = new Set<string>();
  const bind = bareHost(options.host);
  if (!isIpLiteral(bind) && bind !== '') hostNames.add(bind);
  if (options.publicUrl) {
    const url = new URL(options.publicUrl);
    hostNames.add(bareHost(url.hostname));
    controlOrigins.add(url.origin);
  }
  for (const origin of options.controlOrigins ?? []) controlOrigins.add(normalizeOrigin(origin));
  return { hostNames, controlOrigins, loopbackBind: isLoopbackName(bind) && !options.publicUrl };
}

/** An origin as browsers send it in `Origin`: `scheme://host[:port]`, http or https. Throws for anything else. */
export function normalizeOrigin(origin: string): string {
  let url: URL | null = null;
  try {
    url = new URL(origin);
  } catch {
    // Reported below.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new TypeError(`"${origin}" is not an origin (scheme://host[:port], http or https)`);
  }
  return url.origin;
}

/** A host without brackets, port or trailing dot, lower-cased: `[::1]` → `::1`, `Localhost.` → `localhost`. */
export function bareHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function isIpLiteral(bare: string): boolean {
  return isIP(bare) !== 0;
}

/** localhost, *.localhost (browsers resolve both to loopback themselves), 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackName(bare: string): boolean {
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return isIP(bare) === 6 && (bare === '::1' || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(bare));
}
