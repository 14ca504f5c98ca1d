import { headerOf } from '../base/http/request-header.ts';
import { COST_LABEL_ENCODING_HEADER, COST_LABEL_HEADER, withCostLabel } from '../domain/relay/cost-labels.ts';
import type { Middleware } from './room.ts';

/**
 * Around every request: what it says of itself for the sponsor-cost report (domain/relay/cost-labels.ts),
 * kept for whatever the request accepts: its `X-Relay-Emulator-Test` header, else its app (the API
 * key on the current interface, else the interface), found once the core knows the interface.
 */
export function costLabels(): Middleware {
  return (call, next) => {
    const raw = headerOf(call.request, call.requestContext, COST_LABEL_HEADER);
    const test = raw !== null && headerOf(call.request, call.requestContext, COST_LABEL_ENCODING_HEADER) === 'percent' ? percentDecoded(raw) : raw;
    const app = () => {
      const key = headerOf(call.request, call.requestContext, 'x-api-key');
      return call.vars.api === 'current' && key ? `app ${key}` : (call.vars.api ?? 'request');
    };
    return withCostLabel({ test: test === null || test === '' ? null : test, app }, next);
  };
}

/** A percent-encoded header value, decoded; as sent when it does not decode. */
function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
