import { describe, expect, it } from 'vitest';

// The web UI's own logic that needs no page: amounts typed and shown, and the event-stream reader.
// The modules are the browser's, plain JavaScript, loaded as they are served.
const load = (name: string) => import(new URL(`../assets/ui/${name}`, import.meta.url).href);

describe('web UI modules', () => {
  it('shows lamports as exact SOL and reads typed SOL exactly', async () => {
    const { sol } = await load('dom.js');
    const { lamportsOf } = await load('panel-controls.js');
    expect(sol(2_500_000_000)).toBe('2.5 SOL');
    expect(sol(1)).toBe('0.000000001 SOL');
    expect(sol(1_000_000_000_000)).toBe('1,000 SOL');
    expect(sol(-10_000)).toBe('-0.00001 SOL');
    expect(sol(null)).toBe('—');
    expect(lamportsOf('1.5')).toBe(1_500_000_000);
    expect(lamportsOf(' 0.000000001 ')).toBe(1);
    expect(lamportsOf('3')).toBe(3_000_000_000);
    expect(() => lamportsOf('0.0000000001')).toThrow(/up to 9 decimals/);
    expect(() => lamportsOf('-1')).toThrow();
    expect(() => lamportsOf('1e9')).toThrow();
  });

  it('reads server-sent events split anywhere across chunks, skipping comments', async () => {
    const { readEvents } = await load('live.js');
    const text = 'retry: 2000\nevent: hello\ndata: {"at":1}\n\n: keep-alive\n\nevent: change\r\ndata: {"at":2}\r\n\r\ndata: a\ndata: b\n\n';
    // One cut falls between the \r and the \n of a line end.
    const cut = text.indexOf('\r\n') + 1;
    const chunks = [text.slice(0, 7), text.slice(7, 30), text.slice(30, cut), text.slice(cut)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const events: unknown[] = [];
    await readEvents(body, (event: unknown) => events.push(event));
    expect(events).toEqual([
      { name: 'hello', data: '{"at":1}' },
      { name: 'change', data: '{"at":2}' },
      { name: 'message', data: 'a\nb' },
    ]);
  });
});
