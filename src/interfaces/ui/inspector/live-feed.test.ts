import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../../../core/create-fetch.ts';
import { ChangeFeed } from '../../../domain/state/change-feed.ts';
import { CHANGE_INTERVAL_MS, LiveFeed } from './live-feed.ts';

describe('LiveFeed', () => {
  const changes = new ChangeFeed();
  const report = changes.reporter('records');
  let watchers = 0;
  const watch = (watcher: () => void) => {
    watchers += 1;
    const stop = changes.watch(watcher);
    return () => {
      watchers -= 1;
      stop();
    };
  };
  const observers = new Set<(exchange: Exchange) => void>();
  const observe = (observer: (exchange: Exchange) => void) => {
    observers.add(observer);
    return () => observers.delete(observer);
  };
  const exchange = (method: string, api: Exchange['api'], body?: string): Exchange => {
    const request = new Request('http://emulator.test/x', { method, ...(body === undefined ? {} : { body }) });
    // As the core leaves the context once it read the body.
    const context = body === undefined ? {} : { bodyText: body };
    return { request, response: new Response(null), context, api, operationId: null, startedAt: new Date(), durationMs: 0, problem: null };
  };
  const answer = (sent: Exchange) => {
    for (const observer of observers) observer(sent);
  };

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hooks into the stores and the core only while someone listens', () => {
    const feed = new LiveFeed({ watch, observe });
    expect([watchers, observers.size]).toEqual([0, 0]);
    const first = feed.subscribe(() => {});
    const second = feed.subscribe(() => {});
    expect([watchers, observers.size]).toEqual([1, 1]);
    expect(changes.recording).toBe(false); // Watching records nothing: no part builds a report for it.
    first();
    expect([watchers, observers.size]).toEqual([1, 1]);
    second();
    expect([watchers, observers.size]).toEqual([0, 0]);
  });

  it('coalesces a burst of changes into one event per interval', () => {
    const feed = new LiveFeed({ watch, observe });
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
    const feed = new LiveFeed({ watch, observe });
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
