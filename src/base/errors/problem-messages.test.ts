import { describe, expect, it } from 'vitest';
import { errorToResponse } from '../http/error-response.ts';
import { PROBLEMS } from './problem-codes.ts';
import { PROBLEM_MESSAGES } from './problem-messages.ts';
import { RelayError } from './relay-error.ts';

describe('the message table', () => {
  it('makes each detail from its context, the same wherever the refusal is thrown', () => {
    expect(RelayError.of('METHOD_NOT_ALLOWED', { method: 'PUT', headers: { Allow: 'GET, POST' } }).detail).toBe('PUT is not allowed here; use GET, POST.');
    expect(RelayError.of('ROUTE_NOT_FOUND', { method: 'GET', path: '/nowhere' }).message).toBe('No route matches GET /nowhere.');
    expect(RelayError.of('PAYLOAD_TOO_LARGE', { maxBytes: 65536 }).detail).toBe('The request body is larger than 65536 bytes.');
    expect(RelayError.of('UNSUPPORTED_MEDIA_TYPE', { contentType: '', expected: 'application/json' }).detail).toBe(
      'Content-Type "(none)" is not application/json.',
    );
    expect(RelayError.of('QUEUE_FULL', { retryAfter: 1, queued: 4 }).detail).toBe('The relay queue holds 4 transactions, its limit.');
    expect(Object.keys(PROBLEM_MESSAGES).sort()).toEqual([
      'METHOD_NOT_ALLOWED',
      'PAYLOAD_TOO_LARGE',
      'QUEUE_FULL',
      'ROUTE_NOT_FOUND',
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
  });

  it('leaves a call site’s own detail alone, and falls back to the title without the members a message needs', () => {
    expect(new RelayError('METHOD_NOT_ALLOWED', 'POST only, here.', { method: 'GET', headers: { Allow: 'POST' } }).detail).toBe('POST only, here.');
    const bare = new RelayError('ROUTE_NOT_FOUND');
    expect(bare.detail).toBeUndefined();
    expect(bare.message).toBe(PROBLEMS.ROUTE_NOT_FOUND.title);
  });

  it('puts the detail in the body and keeps the members it was made from out of it', async () => {
    const body = (await errorToResponse(RelayError.of('PAYLOAD_TOO_LARGE', { maxBytes: 10 }), { style: 'problem' }).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', detail: 'The request body is larger than 10 bytes.' });
    expect(body).not.toHaveProperty('maxBytes');
  });
});
