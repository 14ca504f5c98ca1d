import { respond } from '../../base/http/respond.ts';
import { describe, expect, it } from 'vitest';
import type { Call } from '../../base/http/router.ts';
import { observed } from '../../core/observe-exchanges.test-support.ts';
import { RequestJournal } from './request-journal.ts';

// A stand-in for the core: echoes the body it got, so the journal's copies can be compared.
// Reads the body as the core does (readJsonBody keeps its text in the request's store), and answers it back.
const echo = async ({ request, vars }: Call) => {
  const text = await request.text();
  vars.bodyText = text;
  return new Response(text, { status: request.method === 'POST' ? 201 : 200, headers: { 'Content-Type': 'application/json', 'X-Kept': 'yes' } });
};
// A handler that never reads the body: the journal reads it itself after the answer.
const ignoring = async () => new Response('{}', { headers: { 'Content-Type': 'application/json' } });
/** A fetch observed by the journal, as the emulator wires it. */
const observedBy = (journal: RequestJournal, handle: (call: Call) => Promise<Response>) =>
  observed(handle, { observers: [journal.record], wantsBodies: journal.wants });
const post = (path: string, body: string) =>
  new Request(`http://emulator.test${path}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });

describe('RequestJournal', () => {
  it('answers exactly what the observed fetch answered, and journals both bodies', async () => {
    const journal = new RequestJournal({ maxEntries: 10 });
    const response = await observedBy(journal, echo)(post('/api/x?y=1', '{"a":1}'));
    expect(response.status).toBe(201);
    expect(response.headers.get('x-kept')).toBe('yes');
    expect(await response.text()).toBe('{"a":1}');
    expect(journal.list()).toEqual([
      expect.objectContaining({
        id: 'req-1',
        method: 'POST',
        path: '/api/x',
        query: '?y=1',
        status: 201,
        clientIp: null,
        requestBody: { a: 1 },
        responseBody: { a: 1 },
      }),
    ]);
  });

  it('keeps text that is not JSON, notes bodies over 64 KiB, and leaves other media out', async () => {
    const journal = new RequestJournal({ maxEntries: 10 });
    const fetch = observedBy(journal, echo);
    await fetch(post('/bad', '{not json'));
    await fetch(post('/big', JSON.stringify({ pad: 'x'.repeat(70_000) })));
    await observedBy(
      journal,
      async () => new Response('<html></html>', { headers: { 'Content-Type': 'text/html' } }),
    )(new Request('http://emulator.test/docs'));
    const [bad, big, docs] = journal.list();
    expect(bad!.requestBody).toBe('{not json');
    expect(big!.requestBody).toMatch(/over 65536 bytes/);
    expect(big!.responseBody).toMatch(/over 65536 bytes/);
    expect(docs!.responseBody).toBeNull();
  });

  it('journals a body the handler never read, and one built by respond() without reading it back', async () => {
    const journal = new RequestJournal({ maxEntries: 10 });
    await observedBy(journal, ignoring)(post('/unread', '{"left":"alone"}'));
    await observedBy(journal, async () => respond('{"built":true}', { headers: { 'Content-Type': 'application/json' } }))(post('/built', '{"sent":1}'));
    await observedBy(journal, ignoring)(new Request('http://emulator.test/bodiless'));
    const [unread, built, bodiless] = journal.list();
    expect(unread!.requestBody).toEqual({ left: 'alone' });
    expect(bodiless).toMatchObject({ method: 'GET', requestBody: null, responseBody: {} });
    expect(built!.responseBody).toEqual({ built: true });
    expect(built!.requestBody).toEqual({ sent: 1 });
  });

  it('keeps the newest entries, filters, and never journals its own reads', async () => {
    const journal = new RequestJournal({ maxEntries: 3 });
    const fetch = observedBy(journal, echo);
    for (const path of ['/a', '/b', '/c', '/d']) await fetch(post(path, '{}'));
    await fetch(new Request('http://emulator.test/__emulator/journal/requests'));
    expect(journal.list().map((entry) => entry.path)).toEqual(['/b', '/c', '/d']);
    expect(journal.list({ path: '/C' }).map((entry) => entry.path)).toEqual(['/c']);
    expect(journal.list({ method: 'get' })).toEqual([]);
    expect(journal.list({ status: 201, limit: 2 }).map((entry) => entry.path)).toEqual(['/c', '/d']);
    journal.clear();
    expect(journal.list()).toEqual([]);
  });

  it('keeps each entry whole with its own id after the ring has gone round several times, and after clear', async () => {
    const journal = new RequestJournal({ maxEntries: 3 });
    const fetch = observedBy(journal, echo);
    for (let index = 1; index <= 10; index += 1) await fetch(post(`/n${index}`, JSON.stringify({ index })));
    expect(journal.list().map((entry) => [entry.id, entry.path, entry.requestBody])).toEqual([
      ['req-8', '/n8', { index: 8 }],
      ['req-9', '/n9', { index: 9 }],
      ['req-10', '/n10', { index: 10 }],
    ]);
    journal.clear();
    await fetch(new Request('http://emulator.test/after?x=1'));
    expect(journal.list()).toEqual([expect.objectContaining({ id: 'req-1', method: 'GET', path: '/after', query: '?x=1', status: 200, requestBody: null })]);
  });

  it('is off with a limit of 0: it asks for no bodies and keeps nothing', async () => {
    const journal = new RequestJournal({ maxEntries: 0 });
    const request = post('/off', '{"a":1}');
    expect(journal.wants(request)).toBe(false);
    const response = await observedBy(journal, echo)(request);
    expect(await response.text()).toBe('{"a":1}');
    expect(journal.list()).toEqual([]);
  });
});
