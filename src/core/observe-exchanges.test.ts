import { describe, expect, it } from 'vitest';
import type { Exchange } from '../base/http/exchange.ts';
import type { Call } from '../base/http/router.ts';
import { respond } from '../base/http/respond.ts';
import { observed } from './observe-exchanges.test-support.ts';

const post = (body: string) => new Request('http://emulator.test/x', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

describe('observeExchanges', () => {
  it("tells every observer what the core recorded in the request's store, even when one throws", async () => {
    const seen: Exchange[] = [];
    const core = async ({ vars }: Call) => {
      vars.api = 'current';
      vars.operationId = 'getConfig';
      vars.problem = { code: 'API_KEY_INVALID', rule: null };
      return respond('{"no":1}', { status: 401, headers: { 'Content-Type': 'application/json' } });
    };
    const throwing = () => {
      throw new Error('an observer that fails');
    };
    const fetch = observed(core, { observers: [throwing, (exchange) => seen.push(exchange)], wantsBodies: () => false });
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
    const core = async ({ request }: Call) => new Response(await request.text(), { headers: { 'Content-Type': 'application/json' } });
    const wanted = observed(core, { observers: [(exchange) => seen.push(exchange)], wantsBodies: () => true });
    const response = await wanted(post('{"a":1}'));
    expect(await response.text()).toBe('{"a":1}');
    expect(seen[0]).toMatchObject({ responseBody: '{"a":1}' });
    // The core read the request body without keeping its text: nothing is left to read, and nothing is made up.
    expect(seen[0]!.requestBody).toBeNull();

    const unread = async () => respond('{}', { headers: { 'Content-Type': 'application/json' } });
    await observed(unread, { observers: [(exchange) => seen.push(exchange)], wantsBodies: () => true })(post('{"left":"alone"}'));
    expect(seen[1]).toMatchObject({ requestBody: '{"left":"alone"}', responseBody: '{}' });
  });
});
