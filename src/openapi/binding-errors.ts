import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * What a refusal of the binder says: ajv's errors as `{ path, message }` fields, the problem code
 * they amount to, and one line describing them all.
 */

export interface FieldError {
  path: string;
  message: string;
}

/** The body fields that carry a transaction to relay (current and legacy). */
export const TRANSACTION_FIELDS: ReadonlySet<string> = new Set(['signedTransaction', 'tx']);

export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  // An `if` that failed its `then` says so besides the `then`'s own error, and a text that is not
  // base58 is not 32 bytes of it either: one error each is enough.
  const patterns = new Set((errors ?? []).filter((error) => error.keyword === 'pattern').map((error) => error.instancePath));
  return (errors ?? [])
    .filter((error) => error.keyword !== 'if' && !(error.keyword === 'format' && patterns.has(error.instancePath)))
    .map((error) => {
      const missing = error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : '';
      return { path: `${error.instancePath}${missing}`.replace(/^\//, '').replaceAll('/', '.'), message: messageOf(error) };
    });
}

/**
 * The code a refusal gets when every error is of one kind the contract has a code for: a text
 * that is base58 but not 32 bytes (format solana-address alone) is INVALID_ADDRESS, and a
 * base64 field that is not base64 is INVALID_BASE64, as the decoders behind the binder say.
 */
export function codeOf(errors: ErrorObject[] | null | undefined, fallback: 'VALIDATION_FAILED' | 'INVALID_QUERY'): 'VALIDATION_FAILED' | 'INVALID_QUERY' | 'INVALID_ADDRESS' | 'INVALID_BASE64' {
  const relevant = (errors ?? []).filter((error) => error.keyword !== 'if');
  if (relevant.length === 0) return fallback;
  if (relevant.every((error) => error.keyword === 'format' && error.params.format === 'solana-address')) return 'INVALID_ADDRESS';
  if (relevant.every((error) => error.keyword === 'pattern' && (error.parentSchema as { contentEncoding?: unknown } | undefined)?.contentEncoding === 'base64')) return 'INVALID_BASE64';
  return fallback;
}

/** ajv's message, except for `not: { required: [a, b] }`, whose "must NOT be valid" says nothing. */
function messageOf(error: ErrorObject): string {
  const forbidden = (error.schema as { required?: unknown } | undefined)?.required;
  if (error.keyword === 'not' && Array.isArray(forbidden)) return `must not have both ${forbidden.join(' and ')}`;
  return error.message ?? 'is invalid';
}

export function describeErrors(errors: FieldError[]): string {
  return errors.map((error) => (error.path ? `${error.path} ${error.message}` : error.message)).join('; ');
}
