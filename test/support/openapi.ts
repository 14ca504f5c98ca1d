/**
 * Validate values and HTTP responses against openapi/relay.yaml.
 *
 *   assertResponseMatchesSpec({ method: 'post', path: '/Account/create', status: 200, body });
 *   validateAgainst('RelayReceipt', value);            // or '#/components/schemas/RelayReceipt'
 *
 * Both throw an Error with a readable ajv message when the value does not match.
 * The ajv set-up lives in src/conformance/contract-validator.ts (it ships with the conformance kit);
 * this file only turns its results into assertions. The spec is read and compiled once per process.
 */
import type { ErrorObject } from 'ajv';
import {
  CONTRACT_PATH,
  HTTP_METHODS,
  defaultContractValidator,
  formatAjvErrors,
  truncate,
  type HttpMethod,
  type ResponseToValidate,
} from '../../src/conformance/contract-validator.ts';

export const SPEC_PATH = CONTRACT_PATH;
export type { HttpMethod };
type Json = Record<string, any>;

/** The parsed OpenAPI document (parsed once, shared; do not mutate). */
export function loadSpec(): Json {
  return defaultContractValidator().document;
}

/** Readable multi-line rendering of ajv errors. */
export { formatAjvErrors };

/**
 * Validate `value` against a schema of the spec: a component name ('RelayReceipt'),
 * a local pointer ('#/components/schemas/RelayReceipt') or 'relay.yaml#/components/...'.
 * Throws on mismatch.
 */
export function validateAgainst(schemaRef: string, value: unknown): void {
  const errors = defaultContractValidator().schemaErrors(schemaRef, value);
  if (errors) {
    throw new Error(`${schemaRef} does not match the spec:\n${formatAjvErrors(errors)}\nvalue: ${truncate(JSON.stringify(value))}`);
  }
}

/** Like validateAgainst, but returns the ajv errors instead of throwing (null when valid). */
export function schemaErrors(schemaRef: string, value: unknown): ErrorObject[] | null {
  return defaultContractValidator().schemaErrors(schemaRef, value);
}

/**
 * Find the spec path key for `path`: the exact key, else (ignoring a leading '/api' and a
 * query string) a case-sensitive then case-insensitive match of a concrete path against
 * the templates ('/account/balance/devnet/0/Abc' → '/account/balance/{environment}/{index}/{accountId}').
 */
export function findSpecPath(path: string, method?: string): string | undefined {
  return defaultContractValidator().findPath(path, method);
}

export type ResponseCheck = ResponseToValidate;

/**
 * Throw unless `body` matches the response schema the spec declares for
 * (method, path, status). The response is chosen by exact status, then '4XX'-style
 * ranges, then `default`; the media type by `contentType`.
 */
export function assertResponseMatchesSpec(r: ResponseCheck): void {
  const { error } = defaultContractValidator().validateResponse(r);
  if (error) throw new Error(error);
}

/** Same as assertResponseMatchesSpec, for a fetch Response (reads the body; returns it parsed). */
export async function assertFetchResponseMatchesSpec(method: string, path: string, res: Response): Promise<unknown> {
  const contentType = res.headers.get('content-type');
  const text = await res.text();
  const body = contentType && /json/i.test(contentType) && text !== '' ? JSON.parse(text) : text;
  assertResponseMatchesSpec({ method, path, status: res.status, body, contentType });
  return body;
}

/** The operation object for (method, path), with its resolved path key. */
export function getOperation(method: string, path: string): { path: string; method: HttpMethod; operation: Json } {
  const found = defaultContractValidator().operation(method, path);
  if (!found) throw new Error(`spec has no operation ${method.toUpperCase()} ${path}`);
  return found;
}

export { HTTP_METHODS };
