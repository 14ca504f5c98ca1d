import { describe, expect, it } from 'vitest';
import { RelayError } from '../errors/relay-error.ts';
import { Router, type Route } from './router.ts';

const route = (method: string, path: string): Route<null> => ({
  method,
  path,
  api: 'current',
  operationId: `${method} ${path}`,
  handle: async () => new Response(null),
});

describe('Router', () => {
  const router = new Router<null>('/api').add(route('POST', '/Account/create'), route('GET', '/app/{environment}/{index}/config'));

  it('matches case-insensitively and captures parameters', () => {
    expect(router.candidates('POST', '/api/account/CREATE')).toHaveLength(1);
    const [match] = router.candidates('GET', '/API/app/devnet/1/config');
    expect(match?.params).toEqual({ environment: 'devnet', index: '1' });
  });

  it('answers 404 for unknown paths and 405 with Allow for the wrong method', () => {
    expect(() => router.candidates('GET', '/api/nope')).toThrowError(expect.objectContaining({ code: 'ROUTE_NOT_FOUND' }));
    try {
      router.candidates('GET', '/api/Account/create');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RelayError);
      expect((error as RelayError).code).toBe('METHOD_NOT_ALLOWED');
      expect((error as RelayError).context.headers).toEqual({ Allow: 'POST' });
    }
  });
});

describe('Router look-ups', () => {
  const guarded = (path: string, name: string): Route<null> => ({ ...route('POST', path), operationId: name, accepts: async () => false });
  const router = new Router<null>('/api').add(
    guarded('/account/create', 'first'),
    route('GET', '/app/{environment}/{index}/config'),
    route('POST', '/Account/create'),
    route('GET', '/{anything}/create'),
  );

  it('finds literal paths with doubled and trailing slashes, in any case', () => {
    for (const path of ['/api/Account/create', '/API//account/CREATE/', '//api/account/create//']) {
      expect(router.candidates('POST', path).map(({ route }) => route.operationId)).toEqual(['first', 'POST /Account/create']);
    }
  });

  it('keeps the order routes were added in when literal and captured routes both match', () => {
    expect(router.candidates('GET', '/api/x/create').map(({ route }) => route.operationId)).toEqual(['GET /{anything}/create']);
    const both = new Router<null>('/api').add(route('GET', '/{a}/b'), route('GET', '/x/b'));
    expect(both.candidates('GET', '/api/x/b').map(({ route }) => route.operationId)).toEqual(['GET /{a}/b', 'GET /x/b']);
  });

  it('lists every method of a path in Allow, literal and captured alike', () => {
    try {
      router.candidates('DELETE', '/api/account/create');
      expect.unreachable();
    } catch (error) {
      expect((error as RelayError).context.headers).toEqual({ Allow: 'POST, GET' });
    }
  });

  it('owns paths under its mount only', () => {
    expect(router.owns('/API/anything')).toBe(true);
    expect(router.owns('/api')).toBe(true);
    expect(router.owns('/apis')).toBe(false);
    expect(new Router<null>('').owns('/x')).toBe(true);
  });
});

describe('Router memory', () => {
  it('remembers answers for its literal paths only, not for every path a client sends', () => {
    const router = new Router<null>('/api').add(route('GET', '/a'), route('GET', '/{x}/b'));
    for (let index = 0; index < 1_000; index += 1) {
      expect(() => router.candidates('GET', `/api/unknown-${index}`)).toThrowError(expect.objectContaining({ code: 'ROUTE_NOT_FOUND' }));
      expect(router.candidates('GET', `/api/v${index}/b`)[0]!.params).toEqual({ x: `v${index}` });
    }
    expect(router.candidates('GET', '/api/A')).toHaveLength(1);
    expect(router.rememberedPaths).toBe(1);
  });
});
