import { describe, expect, it } from 'vitest';
import type { RelayError } from '../../base/errors/relay-error.ts';
import { AdminGuard, isLoopbackHost } from './admin-guard.ts';

describe('isLoopbackHost', () => {
  it('knows loopback binds from the others', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.2.2', 'example.test', '::ffff:10.0.0.1', '']) expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('AdminGuard', () => {
  const request = (token?: string) => new Request('http://h/__emulator/reset', { headers: token === undefined ? {} : { 'X-Admin-Token': token } });
  const codeOf = (run: () => void) => {
    try {
      run();
      return null;
    } catch (error) {
      return (error as RelayError).code;
    }
  };

  it('is open until a token is required', () => {
    const guard = new AdminGuard();
    expect(codeOf(() => guard.check(request(), {}))).toBeNull();
    guard.requireToken('s3cret');
    expect(codeOf(() => guard.check(request(), {}))).toBe('ADMIN_TOKEN_REQUIRED');
    expect(codeOf(() => guard.check(request('wrong'), {}))).toBe('ADMIN_FORBIDDEN');
    expect(codeOf(() => guard.check(request('s3cret!'), {}))).toBe('ADMIN_FORBIDDEN');
    expect(codeOf(() => guard.check(request('s3cret'), {}))).toBeNull();
    guard.requireToken(null);
    expect(codeOf(() => guard.check(request(), {}))).toBeNull();
  });
});
