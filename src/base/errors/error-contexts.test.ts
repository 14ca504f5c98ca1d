import { describe, expect, it } from 'vitest';
import { InternalError, isInternalError } from './internal-error.ts';
import { RelayError, isRelayError } from './relay-error.ts';

// The lines marked @ts-expect-error are the test of the typing: `npm run typecheck` (tsc over the
// tests too) fails when one of them compiles, that is when a code stops asking for its context.
describe('typed error contexts', () => {
  it('asks each code for its own context', () => {
    // @ts-expect-error RATE_LIMITED must say when to come back.
    expect(new RelayError('RATE_LIMITED', 'slow down').context).toEqual({});
    // @ts-expect-error A policy refusal names its rule.
    expect(new RelayError('PROGRAM_NOT_ALLOWED', 'no', {}).context).toEqual({});
    // @ts-expect-error A bare code carries nothing more.
    expect(new RelayError('API_KEY_MISSING', 'who?', { rule: 'P1' }).context).toEqual({ rule: 'P1' });
    const limited = new RelayError('RATE_LIMITED', 'slow down', { retryAfter: 2 });
    expect(limited.context.retryAfter).toBe(2);
    expect(new RelayError('METHOD_NOT_ALLOWED', undefined, { headers: { Allow: 'POST' } }).message).toBe('The route does not accept this method.');
  });

  it('narrows by code, never by message', () => {
    const error: unknown = new RelayError('QUEUE_FULL', 'full', { retryAfter: 1 });
    expect(isRelayError(error, 'QUEUE_FULL') && error.context.retryAfter).toBe(1);
    expect(isRelayError(error, 'RATE_LIMITED')).toBe(false);
    expect(isRelayError(new Error('QUEUE_FULL'))).toBe(false);
  });

  it('makes the emulator’s own failures coded, with one message each made from the context', () => {
    const error: unknown = new InternalError('QUEUE_PAUSED', { waiting: 3 });
    expect(isInternalError(error, 'QUEUE_PAUSED') && error.context.waiting).toBe(3);
    expect((error as Error).message).toBe('The relay queue is paused with 3 transaction(s) waiting: resume(), step() or flush() it first.');
    expect(isInternalError(error, 'STATE_FILE_OPEN')).toBe(false);
    expect(isRelayError(error)).toBe(false);
    // @ts-expect-error Each internal code has its context too.
    expect(new InternalError('STATE_FILE_OPEN', {}).message).toBe('undefined is open already');
  });
});
