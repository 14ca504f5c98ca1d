import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../../../core/create-fetch.ts';
import { freshVars } from '../../../base/http/request-context.ts';
import { createEmitter } from '../../../domain/events.ts';
import { ChangeFeed } from '../../../domain/state/change-feed.ts';
import { CHANGE_INTERVAL_MS, LiveFeed } from './live-feed.ts';

describe('LiveFeed', () => {
  const events = createEmitter();
  const changes = new ChangeFeed(events);
  const report = changes.reporter('records');
  const listeners = () => [events.listening('state-change'), events.listening('exchange')];
  const exchange = (method: string, api: Exchange['api'], body?: string): Exchange => {
    const request = new Request('http://emulator.test/x', { method, ...(body === undefined ? {} : { body }) });
    // As the core leaves the request's store once it read the body.
    const vars = { ...freshVars(), api, bodyText: body };
    return { request, response: new Response(null), context: {}, vars, api, operationId: null, startedAt: new Date(), durationMs: 0, problem: null };
  };
  const answer = (sent: Exchange) => events.emit('exchange', sent);

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('listens to the emitter only while someone listens to it', () => {
    const feed = new LiveFeed(events);
    expect(listeners()).toEqual([false, false]);
    const first = feed.subscribe(() => {});
    const second = feed.subscribe(() => {});
    expect(listeners()).toEqual([true, true]);
    // While a page watches, the parts report their changes (the ledger's writes too).
    expect(changes.recording).toBe(true);
    first();
    expect(listeners()).toEqual([true, true]);
    second();
    expect(listeners()).toEqual([false, false]);
    expect(changes.recording).toBe(false);
  });

  it('coalesces a burst of changes into one event per interval', () => {
    const feed = new LiveFeed(events);
    const heard = vi.fn();
    const stop = feed.subscribe(heard);
    for (let index = 0; index < 50; index += 1) report({ op: 'update' });
    answer(exchange('POST', 'current'));
    vi.advanceTimersByTime(0);
    expect(heard).toHaveBeenCalledTimes(1);
    report({ op: 'update' });
    vi.advanceTimersByTime(CHANGE_INTERVAL_MS - 1);
    expect(heard).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
  });

  it('takes reads for no news: GET, preflights and JSON-RPC reads; RPC sends and airdrops are news', () => {
    const feed = new LiveFeed(events);
    const heard = vi.fn();
    const stop = feed.subscribe(heard);
    answer(exchange('GET', 'emulator'));
    answer(exchange('OPTIONS', null));
    answer(exchange('POST', 'rpc', '{"method":"getBalance"}'));
    vi.advanceTimersByTime(CHANGE_INTERVAL_MS * 2);
    expect(heard).not.toHaveBeenCalled();
    answer(exchange('POST', 'rpc', '{"jsonrpc":"2.0","id":1,"method":"sendTransaction","params":["x"]}'));
    vi.advanceTimersByTime(CHANGE_INTERVAL_MS);
    expect(heard).toHaveBeenCalledTimes(1);
    answer(exchange('POST', 'rpc', '{"jsonrpc":"2.0","id":2,"method":"requestAirdrop","params":["x",1]}'));
    vi.advanceTimersByTime(CHANGE_INTERVAL_MS);
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
  });
});
