import { STATUS_CODES } from 'node:http';
import { respond } from './respond.ts';
import { PROBLEMS } from '../errors/problem-codes.ts';
import { RelayError } from '../errors/relay-error.ts';
import type { ProblemRecord } from './request-context.ts';

/**
 * The two error bodies the service speaks:
 * - `problem`: RFC 9457 application/problem+json, for the current interface and the emulator's own routes;
 * - `legacy`: the NestJS `{statusCode, message, error}` body of the legacy interface.
 */
export type ErrorStyle = 'problem' | 'legacy';

export interface ErrorResponseOptions {
  style: ErrorStyle;
  /** The request path, reported as the problem's `instance`. */
  instance?: string;
  /** Called with errors that are not RelayErrors, before they are masked as INTERNAL_ERROR. */
  onUnexpected?: (error: unknown) => void;
}

/** What observers learn of a refusal: its problem code and fee-payer rule; INTERNAL_ERROR for anything not coded. */
export function problemOf(error: unknown): ProblemRecord {
  return error instanceof RelayError ? { code: error.code, rule: error.context.rule ?? null } : { code: 'INTERNAL_ERROR', rule: null };
}

function problemType(code: string): string {
  return `urn:relay-emulator:problem:${code.toLowerCase().replaceAll('_', '-')}`;
}

/** The only place an error becomes an HTTP response. */
export function errorToResponse(error: unknown, options: ErrorResponseOptions): Response {
  let relayError: RelayError;
  if (error instanceof RelayError) {
    relayError = error;
  } else {
    options.onUnexpected?.(error);
    relayError = new RelayError('INTERNAL_ERROR');
  }
  const { code, detail, context } = relayError;
  const { status, title } = PROBLEMS[code];
  const headers = new Headers(context.headers);
  if (context.retryAfter !== undefined) headers.set('Retry-After', String(Math.ceil(context.retryAfter)));

  if (options.style === 'legacy') {
    headers.set('Content-Type', 'application/json; charset=utf-8');
    const body = { statusCode: status, message: detail ?? title, error: STATUS_CODES[status] ?? 'Error', ...(context.rule ? { rule: context.rule } : {}) };
    return respond(JSON.stringify(body), { status, headers });
  }

  headers.set('Content-Type', 'application/problem+json; charset=utf-8');
  const body = {
    type: problemType(code),
    title,
    status,
    detail: detail ?? title,
    code,
    ...(context.rule ? { rule: context.rule } : {}),
    ...(options.instance === undefined ? {} : { instance: options.instance }),
    ...(context.errors ? { errors: context.errors } : {}),
    ...(context.logs ? { logs: context.logs } : {}),
  };
  return respond(JSON.stringify(body), { status, headers });
}
