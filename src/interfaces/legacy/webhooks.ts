import type { LegacyApp } from './legacy-apps.ts';
import type { LegacyTransaction } from './legacy-records.ts';

export type WebhookType = 'Event' | 'Verify';

/** How long a webhook may take before it counts as failed, in ms. */
const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookDelivery {
  start: Date;
  end: Date;
  /** Null when the receiver answered 2xx; else why the delivery failed. */
  failure: { message: string; logs: string[] } | null;
}

/**
 * POSTs a record to one of an app's webhooks with the global `fetch` (so MSW can intercept it, and
 * a real server receives it otherwise). Headers, as the legacy service sent them with its brand
 * word replaced: `legacy-environment`, `legacy-index`, `legacy-webhook-type` (`Event`|`Verify`),
 * `legacy-tx-id`, plus the client's own `legacy-*` request headers. A non-2xx answer, a network
 * error or a timeout is a failure.
 */
export async function deliverWebhook(options: {
  app: LegacyApp;
  type: WebhookType;
  url: string;
  record: LegacyTransaction;
  forwardHeaders: Record<string, string>;
  now: () => Date;
}): Promise<WebhookDelivery> {
  const { app, type, url, record, now } = options;
  const headers = {
    ...options.forwardHeaders,
    'content-type': 'application/json',
    'legacy-environment': app.environment,
    'legacy-index': String(app.index),
    'legacy-webhook-type': type,
    'legacy-tx-id': record.id,
  };
  const start = now();
  let failure: WebhookDelivery['failure'] = null;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(record),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) {
      const error = `Request failed with status code ${response.status}`;
      failure = { message: messageOf(text) ?? error, logs: [`Error: ${error}`, ...(text ? [text.slice(0, 2000)] : [])] };
    }
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    const message = `${(error as Error).message}${cause?.message ? `: ${cause.message}` : ''}`;
    failure = { message, logs: [String(error)] };
  }
  return { start, end: now(), failure };
}

/** The `message` of a JSON error body, as the legacy service reported it when present. */
function messageOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body?.message === 'string' ? body.message : null;
  } catch {
    return null;
  }
}
