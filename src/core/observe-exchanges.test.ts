import { describe, expect, it } from 'vitest';
import type { Exchange, FetchHandler } from '../base/http/exchange.ts';
import { respond } from '../base/http/respond.ts';
import { observeExchanges } from './observe-exchanges.ts';

const post = (body: string) => new Request('http://emulator.test/x', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

describe('observeExchanges', () => {
  it('tells every observer what the core recorded in the context, even when one throws', async () => {
    const seen: Exchange[] = [];
    const core: FetchHandler = async (_request, context = {}) => {
      context.api = 'current';
      context.operationId = 'getConfig';
      context.problem = { code: 'API_KEY_INVALID', rule: null };
      return respond('{"no":1}', { status: 401, headers: { 'Content-Type': 'application/json' } });
    };
    const throwing = () => {
      throw new Error('an observer that fails');
    };
    const fetch = observeExchanges(core, { observers: [throwing, (exchange) => seen.push(exchange)], wantsBodies: () => false });
    const response = await fetch(new Request('http://emulator.test/x'));
    expect(response.status).toBe(401);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ api: 'current', operationId: 'getConfig', problem: { code: 'API_KEY_INVALID', rule: null } });
    expect(seen[0]!.requestBody).toBeUndefined();
    expect(seen[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('takes the bodies only when asked, reading neither twice', async () => {
    const seen: Exchange[] = [];
    // A response not built by respond(): read once for the observers, and the same bytes answered.
    const core: FetchHandler = async (request) => new Response(await request.text(), { headers: { 'Content-Type': 'application/json' } });
    const wanted = observeExchanges(core, { observers: [(exchange) => seen.push(exchange)], wantsBodies: () => true });
    const response = await wanted(post('{"a":1}'));
    expect(await response.text()).toBe('{"a":1}');
    expect(seen[0]).toMatchObject({ responseBody: '{"a":1}' });
    // The core read the request body without keeping its text: nothing is left to read, and nothing is made up.
    expect(seen[0]!.requestBody).toBeNull();

    const unread: FetchHandler = async () => respond('{}', { headers: { 'Content-Type': 'application/json' } });
    await observeExchanges(unread, { observers: [(exchange) => seen.push(exchange)], wantsBodies: () => true })(post('{"left":"alone"}'));
    expect(seen[1]).toMatchObject({ requestBody: '{"left":"alone"}', responseBody: '{}' });
  });
});
