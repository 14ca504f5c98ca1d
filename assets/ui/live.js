// Live updates: the server-sent events of GET /__emulator/events, read with fetch rather than
// EventSource because EventSource cannot send X-Admin-Token. Each `hello` or `change` event means
// "what you show may be stale"; the page then fetches what it shows again. No polling: nothing is
// fetched while nothing changes.

import { headers } from './api.js';

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 10000;

/**
 * Keeps one event stream open (reconnecting with back-off) and calls `onChange` for each event, and
 * `onState` with 'live', 'reconnecting' or 'locked' (the admin guard refused). Returns a stop function.
 */
export function watch({ onChange, onState }) {
  let stopped = false;
  let controller = null;
  let wait = FIRST_RETRY_MS;

  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const response = await fetch('__emulator/events', { headers: headers({ Accept: 'text/event-stream' }), cache: 'no-store', signal: controller.signal });
        if (response.status === 401 || response.status === 403) {
          onState('locked');
          return;
        }
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        onState('live');
        wait = FIRST_RETRY_MS;
        await readEvents(response.body, onChange);
      } catch {
        // Dropped, refused or aborted: try again below unless stopped.
      }
      if (stopped) return;
      onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, LAST_RETRY_MS);
    }
  }

  run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}

/** Splits the stream into events (blank-line separated) and hands on those with a name. */
export async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replaceAll('\r\n', '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseEvent(block);
      if (event) onEvent(event);
    }
  }
}

function parseEvent(block) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue; // A comment (keep-alive).
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? { name, data: data.join('\n') } : null;
}
