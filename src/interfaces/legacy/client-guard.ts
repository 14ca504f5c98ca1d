import { clientAddressOf } from '../../base/http/client-address.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { LegacyApp } from './legacy-apps.ts';
import { headerOf } from '../../base/http/request-header.ts';
import type { RequestContext } from '../../base/http/request-context.ts';

/** The client address when no proxy header names one: in process (MSW) there is no socket. */
const IN_PROCESS_IP = '127.0.0.1';

export interface LegacyClient {
  ip: string;
  /**
   * `kinetic-user-agent` (what Kinetic's SDKs send, `@kin-kinetic/sdk@1.0.0-rc.18`; browsers cannot
   * set User-Agent), or `legacy-user-agent` (the same with the spec's word for the brand), else User-Agent.
   */
  ua: string | null;
  /** Request headers starting with `kinetic-` or `legacy-`, passed on to webhooks. */
  forwardHeaders: Record<string, string>;
}

/**
 * Who is calling: the socket's address when served over a port, else the first
 * `x-forwarded-for` address, else `x-real-ip`, else 127.0.0.1 (in process, under MSW).
 */
export function clientOf(request: Request, context: RequestContext): LegacyClient {
  const ip = clientAddressOf(request, context) ?? IN_PROCESS_IP;
  const ua = headerOf(request, context, 'kinetic-user-agent') ?? headerOf(request, context, 'legacy-user-agent') ?? headerOf(request, context, 'user-agent');
  const forwardHeaders: Record<string, string> = {};
  for (const [name, value] of request.headers) if (name.startsWith('legacy-') || name.startsWith('kinetic-')) forwardHeaders[name] = value;
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
