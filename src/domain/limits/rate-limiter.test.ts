import { describe, expect, it } from 'vitest';
import { apiKeyId } from '../auth/api-keys.ts';
import type { RelayError } from '../../base/errors/relay-error.ts';
import { validateRateLimit } from './rate-limit-options.ts';
import { RateLimiter } from './rate-limiter.ts';

const request = (headers: Record<string, string>) => new Request('https://relay.example.test/api/Transaction/config', { headers });
/** An unsigned JWT with the given subject (the limiter runs after authentication, so it only decodes). */
const tokenFor = (sub: string) => `${Buffer.from('{"alg":"EdDSA"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.c2ln`;

function refusal(limiter: RateLimiter, headers: Record<string, string>): RelayError | null {
  try {
    limiter.take(request(headers), {});
    return null;
  } catch (error) {
    return error as RelayError;
  }
}

describe('RateLimiter', () => {
  it('keeps one bucket per API key, and a bearer Token spends the bucket of its key', () => {
    let now = 0;
    const limiter = new RateLimiter({ requestsPerSecond: 0.5, burst: 2 }, { now: () => now });
    expect(refusal(limiter, { 'x-api-key': 'a' })).toBeNull();
    expect(refusal(limiter, { authorization: `Bearer ${tokenFor(apiKeyId('a'))}` })).toBeNull();
    const refused = refusal(limiter, { 'x-api-key': 'a' });
    expect(refused?.code).toBe('RATE_LIMITED');
    expect(refused?.context.retryAfter).toBe(2);
    expect(refusal(limiter, { 'x-api-key': 'b' })).toBeNull();
    now += 2_000;
    expect(refusal(limiter, { 'x-api-key': 'a' })).toBeNull();
    limiter.reset();
    expect(refusal(limiter, { 'x-api-key': 'a' })).toBeNull();
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    const limiter = new RateLimiter({ requestsPerSecond: 1000, burst: 1 }, { now: () => 0 });
    limiter.take(request({ 'x-api-key': 'a' }), {});
    expect(refusal(limiter, { 'x-api-key': 'a' })?.context.retryAfter).toBe(1);
  });
});

describe('validateRateLimit', () => {
  it('accepts null and sane settings, and refuses the rest at start-up', () => {
    expect(validateRateLimit(null)).toBeNull();
    expect(validateRateLimit({ requestsPerSecond: 0.5, burst: 1 })).toEqual({ requestsPerSecond: 0.5, burst: 1 });
    for (const bad of [
      { requestsPerSecond: 0, burst: 1 },
      { requestsPerSecond: Number.NaN, burst: 1 },
      { requestsPerSecond: 1, burst: 0 },
      { requestsPerSecond: 1, burst: 1.5 },
    ]) {
      expect(() => validateRateLimit(bad)).toThrow(TypeError);
    }
  });
});
