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
