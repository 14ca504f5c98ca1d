import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathnameOf, searchOf, withoutTrailingSlashes } from './request-url.ts';

describe('request URL parts', () => {
  it('cut the same path and query out of a Request URL as new URL() parses', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (raw) => {
        const href = new Request(raw).url;
        const url = new URL(href);
        expect(pathnameOf(href)).toBe(url.pathname);
        expect(searchOf(href)).toBe(url.search);
      }),
      { numRuns: 2_000 },
    );
  });

  it('handle the shapes the routes meet', () => {
    for (const raw of [
      'http://127.0.0.1:8787',
      'http://h/api/Account//create/?x=1',
      'http://h/a?',
      'http://h/a#f?x',
      'http://h/%7Ea/b%2Fc?q=%3F#x',
      'http://[::1]:9/rpc',
    ]) {
      const href = new Request(raw).url;
      expect([pathnameOf(href), searchOf(href)]).toEqual([new URL(href).pathname, new URL(href).search]);
    }
  });

  it('trim trailing slashes but keep the root', () => {
    expect(withoutTrailingSlashes('/rpc//')).toBe('/rpc');
    expect(withoutTrailingSlashes('/rpc')).toBe('/rpc');
    expect(withoutTrailingSlashes('/')).toBe('/');
    expect(withoutTrailingSlashes('//')).toBe('/');
  });
});
