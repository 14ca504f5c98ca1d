import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  received: ReceivedWebhook[];
  /** Resolves with the first request to `path` for which `match` holds (already received, or the next one). */
  next(path: string, match?: (hook: ReceivedWebhook) => boolean): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on a free local port that records every POST. It answers the status given by
 * `statuses[path]` (default 200), with a JSON `{message}` body on errors, as a NestJS app would.
 */
export async function startWebhookReceiver(statuses: Record<string, number> = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { path: string; match: (hook: ReceivedWebhook) => boolean; resolve: (hook: ReceivedWebhook) => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const hook: ReceivedWebhook = { path: request.url ?? '/', headers: request.headers, body: text ? JSON.parse(text) : null };
      received.push(hook);
      const status = statuses[hook.path] ?? 200;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(status < 300 ? { ok: true } : { message: `receiver refused with ${status}` }));
      for (const waiter of [...waiters]) {
        if (waiter.path === hook.path && waiter.match(hook)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(hook);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    next(path, match = () => true) {
      const found = received.find((hook) => hook.path === path && match(hook));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ path, match, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
