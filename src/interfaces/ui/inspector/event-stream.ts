import { CORS_RESPONSE_HEADERS } from '../../../base/http/respond.ts';
import type { LiveFeed } from './live-feed.ts';

/** A comment line this often keeps proxies from closing an idle stream and tells a dead client apart. */
const KEEP_ALIVE_MS = 15_000;

/**
 * A server-sent event stream of the feed: `event: hello` at once, `event: change` on each
 * (coalesced) change, a `: keep-alive` comment every {@link KEEP_ALIVE_MS}. It ends when the client
 * goes away (the server cancels the body), and unsubscribes then.
 */
export function changeEventStream(feed: LiveFeed): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop(); // Closed under us: the client is gone.
        }
      };
      const unsubscribe = feed.subscribe(() => send(`event: change\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`));
      const keepAlive = setInterval(() => send(': keep-alive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref?.();
      stop = () => {
        clearInterval(keepAlive);
        unsubscribe();
      };
      send(`retry: 2000\nevent: hello\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`);
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    headers: {
      ...CORS_RESPONSE_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // Tells nginx-style proxies not to buffer the stream.
      'X-Accel-Buffering': 'no',
    },
  });
}
