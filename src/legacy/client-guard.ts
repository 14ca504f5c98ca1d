import { clientAddressOf } from '../http/client-address.ts';
import { RelayError } from '../errors/relay-error.ts';
import type { LegacyApp } from './legacy-apps.ts';
import { headerOf } from '../http/request-header.ts';

/** The client address when no proxy header names one: in process (MSW) there is no socket. */
export const IN_PROCESS_IP = '127.0.0.1';

export interface LegacyClient {
  ip: string;
  /** `legacy-user-agent` (what browser SDKs send, since they cannot set User-Agent), else User-Agent. */
  ua: string | null;
  /** Request headers starting with `legacy-`, passed on to webhooks. */
  forwardHeaders: Record<string, string>;
}

/**
 * Who is calling: the socket's address when served over a port, else the first
 * `x-forwarded-for` address, else `x-real-ip`, else 127.0.0.1 (in process, under MSW).
 */
export function clientOf(request: Request): LegacyClient {
  const ip = clientAddressOf(request) ?? IN_PROCESS_IP;
  const ua = headerOf(request, 'legacy-user-agent') ?? headerOf(request, 'user-agent');
  const forwardHeaders: Record<string, string> = {};
  for (const [name, value] of request.headers) if (name.startsWith('legacy-')) forwardHeaders[name] = value;
  return { ip, ua, forwardHeaders };
}

/** The app's allow and block lists: 403 IP_BLOCKED or USER_AGENT_BLOCKED. Lists compare exact strings. */
export function checkClient(app: LegacyApp, client: LegacyClient): void {
  if ((app.ipsAllowed.length > 0 && !app.ipsAllowed.includes(client.ip)) || app.ipsBlocked.includes(client.ip)) {
    throw new RelayError('IP_BLOCKED', `${app.key}: Request not allowed from IP ${client.ip}.`);
  }
  const ua = client.ua ?? '';
  if ((app.uasAllowed.length > 0 && !app.uasAllowed.includes(ua)) || app.uasBlocked.includes(ua)) {
    throw new RelayError('USER_AGENT_BLOCKED', `${app.key}: Request not allowed from user agent ${JSON.stringify(ua)}.`);
  }
}
