import type { ErrorObject } from 'ajv/dist/2020.js';
import { base64Problem } from '../../base/crypto/base64.ts';

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

/** `root` is the value validated: a base64 field's error then says what is wrong with its text. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined, root?: unknown): FieldError[] {
  // An `if` that failed its `then` says so besides the `then`'s own error, and a text that is not
  // base58 is not 32 bytes of it either: one error each is enough.
  const patterns = new Set((errors ?? []).filter((error) => error.keyword === 'pattern').map((error) => error.instancePath));
  // A value that fits no branch of a oneOf gets one message for the oneOf, not one per branch.
  const oneOfs = new Set((errors ?? []).filter((error) => error.keyword === 'oneOf').map((error) => error.instancePath));
  return (errors ?? [])
    .filter((error) => error.keyword !== 'if' && !(error.keyword === 'format' && patterns.has(error.instancePath)))
    .filter((error) => error.keyword === 'oneOf' || !oneOfs.has(error.instancePath) || !error.schemaPath.includes('/oneOf/'))
    .map((error) => {
      const missing =
        error.keyword === 'required'
          ? `/${String(error.params.missingProperty)}`
          : error.keyword === 'additionalProperties'
            ? `/${String(error.params.additionalProperty)}`
            : '';
      return {
        path: `${error.instancePath}${missing}`.replace(/^\//, '').replaceAll('/', '.'),
        message: isBase64Error(error) ? base64Message(valueAt(root, error.instancePath)) : messageOf(error),
      };
    });
}

/**
 * The code a refusal gets when every error is of one kind the contract has a code for: a text
 * that is base58 but not 32 bytes (format solana-address alone) is INVALID_ADDRESS, and a
 * base64 field that is not base64 is INVALID_BASE64, as the decoders behind the binder say.
 */
export function codeOf(
  errors: ErrorObject[] | null | undefined,
  fallback: 'VALIDATION_FAILED' | 'INVALID_QUERY',
): 'VALIDATION_FAILED' | 'INVALID_QUERY' | 'INVALID_ADDRESS' | 'INVALID_BASE64' {
  const relevant = (errors ?? []).filter((error) => error.keyword !== 'if');
  if (relevant.length === 0) return fallback;
  if (relevant.every((error) => error.keyword === 'format' && error.params.format === 'solana-address')) return 'INVALID_ADDRESS';
  if (relevant.every(isBase64Error)) return 'INVALID_BASE64';
  return fallback;
}

function isBase64Error(error: ErrorObject): boolean {
  return (
    (error.keyword === 'pattern' || error.keyword === 'format') &&
    (error.parentSchema as { contentEncoding?: unknown } | undefined)?.contentEncoding === 'base64'
  );
}

function base64Message(value: unknown): string {
  const problem = typeof value === 'string' ? base64Problem(value) : null;
  return `is not standard base64 (RFC 4648 §4, padded)${problem ? `: ${problem}` : ''}`;
}

/** The value at a JSON pointer (ajv's instancePath). */
function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return value;
}

const ARTICLES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};
const FORMATS: Record<string, string> = { 'solana-address': 'a base58 address of 32 bytes', uri: 'an absolute URL', 'date-time': 'an RFC 3339 date and time' };

/**
 * A field's error as a person would write it after the field's name ("signedTransaction is
 * required", "lamports must be an integer"), not ajv's ("must have required property
 * 'signedTransaction'"). Base64 fields get the decoder's own account (binding.ts, base64Problem).
 */
function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of this request';
    case 'type':
      return `must be ${String(params.type)
        .split(',')
        .map((type) => ARTICLES[type] ?? type)
        .join(' or ')}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `must be ${error.keyword === 'minimum' ? 'at least' : 'more than'} ${String(params.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `must be ${error.keyword === 'maximum' ? 'at most' : 'less than'} ${String(params.limit)}`;
    case 'minLength':
      return `must be at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'} long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return `must hold at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must hold at most ${String(params.limit)} items`;
    case 'format':
      return `must be ${FORMATS[String(params.format)] ?? `in the ${String(params.format)} format`}`;
    case 'oneOf': {
      const branches = ((error.schema as JsonBranch[] | undefined) ?? []).map(describeBranch);
      return branches.every(Boolean) ? `must be ${branches.join(', or ')}` : (error.message ?? 'is invalid');
    }
    case 'not': {
      const forbidden = (error.schema as { required?: unknown } | undefined)?.required;
      if (Array.isArray(forbidden)) return `must not have both ${forbidden.join(' and ')}`;
      return error.message ?? 'is invalid';
    }
    default:
      return error.message ?? 'is invalid';
  }
}

interface JsonBranch {
  type?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

/** One branch of a oneOf in words, or null when it is not a plain type. */
function describeBranch(branch: JsonBranch): string | null {
  if (branch.type === 'string' && branch.pattern && /^\^\[0-9\](\+|\{1,\d+\})\$$/.test(branch.pattern)) return 'a string of digits';
  if (branch.type === 'integer' && branch.minimum !== undefined && branch.maximum !== undefined)
    return `an integer from ${branch.minimum} to ${branch.maximum}`;
  if (branch.type && !branch.pattern && branch.minimum === undefined && branch.maximum === undefined) return ARTICLES[branch.type] ?? branch.type;
  return null;
}

export function describeErrors(errors: FieldError[]): string {
  return errors.map((error) => (error.path ? `${error.path} ${error.message}` : error.message)).join('; ');
}
