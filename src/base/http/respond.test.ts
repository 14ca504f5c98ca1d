import { describe, expect, it } from 'vitest';
import { contentTypeOf, isCompleteResponse, respond, responseTextOf } from './respond.ts';

describe('respond', () => {
  it('adds the CORS headers and keeps the given ones, from a record, a Headers or pairs', async () => {
    const forms = [
      { 'Content-Type': 'application/json', 'Retry-After': '3' },
      new Headers({ 'Content-Type': 'application/json', 'Retry-After': '3' }),
      [
        ['Content-Type', 'application/json'],
        ['Retry-After', '3'],
      ] as [string, string][],
    ];
    for (const headers of forms) {
      const response = respond('{"ok":true}', { status: 429, headers });
      expect(response.status).toBe(429);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toBe('Retry-After, Allow, Location');
      expect(response.headers.get('retry-after')).toBe('3');
      expect(contentTypeOf(response)).toBe('application/json');
      expect(responseTextOf(response)).toBe('{"ok":true}');
      expect(isCompleteResponse(response)).toBe(true);
      expect(await response.text()).toBe('{"ok":true}');
    }
  });

  it('finds the Content-Type whatever its case, and knows when there is none', () => {
    expect(contentTypeOf(respond('x', { headers: { 'content-TYPE': 'text/plain' } }))).toBe('text/plain');
    expect(contentTypeOf(respond(null, { status: 204 }))).toBeNull();
    expect(contentTypeOf(respond(null, { headers: new Headers({ Allow: 'GET' }) }))).toBeNull();
  });

  it('leaves a response it did not build to its own headers', () => {
    const foreign = new Response('x', { headers: { 'Content-Type': 'text/html' } });
    expect(isCompleteResponse(foreign)).toBe(false);
    expect(responseTextOf(foreign)).toBeUndefined();
    expect(contentTypeOf(foreign)).toBe('text/html');
  });
});
