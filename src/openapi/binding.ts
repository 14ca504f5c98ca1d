import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { RelayError } from '../errors/relay-error.ts';
import { addContractFormats } from './formats.ts';
import { openApiDocument, operationsById, resolveRef, type JsonSchema, type OpenApiOperation, type OpenApiParameter } from './document.ts';

/**
 * Binds requests the way the real service's ASP.NET model binding does, then validates them
 * against openapi/relay.yaml:
 * - JSON property names and query names match case-insensitively (`SignedTransaction` binds to
 *   `signedTransaction`); a parameter's `x-aliases` bind too (`Page` → `PageNumber`);
 * - query values are coerced to the schema's type; schema defaults are applied. An empty value
 *   (`?operation=`) is a value like any other, checked against the schema, except for a
 *   parameter marked `allowEmptyValue`, where it binds as absent (as ASP.NET binds `""` to a
 *   string: null);
 * - an integer past 2^53 (or any number JSON cannot keep exactly) does not bind as an integer.
 * The result carries the canonical names of the contract.
 */
export interface RequestBinder {
  body(operationId: string, raw: unknown): Record<string, unknown>;
  query(operationId: string, params: URLSearchParams): Record<string, unknown>;
}

interface BoundOperation {
  bodyNames: Map<string, string>;
  validateBody: ValidateFunction | null;
  query: { parameter: OpenApiParameter; names: Set<string>; validate: ValidateFunction }[];
}

let binder: RequestBinder | undefined;

/** The process-wide binder; schemas compile once. */
export function requestBinder(): RequestBinder {
  binder ??= createBinder();
  return binder;
}

function createBinder(): RequestBinder {
  // verbose: errors carry their schema, so that a `not: {required}` can say what it forbids.
  const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults: true, verbose: true });
  addFormats.default(ajv);
  addContractFormats(ajv);
  ajv.addSchema({ $id: 'relay.yaml', components: openApiDocument().components }, 'relay.yaml');
  const operations = operationsById();
  const cache = new Map<string, BoundOperation>();

  const compile = (schema: JsonSchema): ValidateFunction => ajv.compile(rewriteRefs(schema) as JsonSchema);

  function bound(operationId: string): BoundOperation {
    let entry = cache.get(operationId);
    if (entry) return entry;
    const found = operations.get(operationId);
    if (!found) throw new Error(`operation ${operationId} is not in openapi/relay.yaml`);
    const { operation } = found;
    const bodySchema = requestBodySchema(operation);
    entry = {
      bodyNames: new Map(Object.keys(schemaProperties(bodySchema)).map((name) => [name.toLowerCase(), name])),
      validateBody: bodySchema ? compile(bodySchema) : null,
      query: (operation.parameters ?? [])
        .map((parameter) => resolveRef<OpenApiParameter>(parameter))
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => ({
          parameter,
          names: new Set([parameter.name, ...(parameter['x-aliases'] ?? [])].map((name) => name.toLowerCase())),
          validate: compile(parameter.schema ?? {}),
        })),
    };
    cache.set(operationId, entry);
    return entry;
  }

  return {
    body(operationId, raw) {
      const entry = bound(operationId);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        throw new RelayError('VALIDATION_FAILED', 'The request body must be a JSON object.', {
          errors: [{ path: '', message: 'must be object' }],
        });
      }
      const canonical: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(raw)) {
        const name = entry.bodyNames.get(key.toLowerCase()) ?? key;
        // An exact-case key wins over a differently-cased duplicate.
        if (!(name in canonical) || key === name) canonical[name] = value;
      }
      if (entry.validateBody && !entry.validateBody(canonical)) {
        const errors = toFieldErrors(entry.validateBody.errors);
        throw new RelayError(codeOf(entry.validateBody.errors, 'VALIDATION_FAILED'), describe(errors), { errors });
      }
      return canonical;
    },

    query(operationId, params) {
      const entry = bound(operationId);
      const result: Record<string, unknown> = {};
      const errors: { path: string; message: string }[] = [];
      const failures: ErrorObject[] = [];
      for (const { parameter, names, validate } of entry.query) {
        let raw: string | undefined;
        for (const [key, value] of params) if (names.has(key.toLowerCase())) raw = value;
        if (raw === undefined || (raw === '' && parameter.allowEmptyValue === true)) {
          if (parameter.required) errors.push({ path: parameter.name, message: 'is required' });
          const fallback = (parameter.schema as { default?: unknown } | undefined)?.default;
          if (fallback !== undefined) result[parameter.name] = fallback;
          continue;
        }
        const value = coerce(raw, parameter.schema ?? {});
        if (!validate(value)) {
          failures.push(...(validate.errors ?? []));
          for (const error of toFieldErrors(validate.errors)) errors.push({ path: parameter.name, message: error.message });
          continue;
        }
        result[parameter.name] = value;
      }
      const missing = errors.length > toFieldErrors(failures).length;
      if (errors.length > 0) throw new RelayError(missing ? 'INVALID_QUERY' : codeOf(failures, 'INVALID_QUERY'), describe(errors), { errors });
      return result;
    },
  };
}

function requestBodySchema(operation: OpenApiOperation): JsonSchema | null {
  if (!operation.requestBody) return null;
  const body = resolveRef(operation.requestBody) as { content?: Record<string, { schema?: JsonSchema }> };
  return body.content?.['application/json']?.schema ?? null;
}

/** Properties of a schema, through $ref and allOf. */
export function schemaProperties(schema: JsonSchema | null | undefined): Record<string, JsonSchema> {
  if (!schema) return {};
  const resolved = resolveRef<JsonSchema>(schema);
  const own = (resolved.properties as Record<string, JsonSchema> | undefined) ?? {};
  const inherited = ((resolved.allOf as JsonSchema[] | undefined) ?? []).map(schemaProperties);
  return Object.assign({}, ...inherited, own);
}

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `relay.yaml${value}` : rewriteRefs(value),
    ]),
  );
}

function coerce(raw: string, schema: JsonSchema): unknown {
  const type = resolveRef<JsonSchema>(schema).type;
  if (type === 'integer') return /^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
  if (type === 'number') return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

function toFieldErrors(errors: ErrorObject[] | null | undefined): { path: string; message: string }[] {
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
function codeOf(errors: ErrorObject[] | null | undefined, fallback: 'VALIDATION_FAILED' | 'INVALID_QUERY'): 'VALIDATION_FAILED' | 'INVALID_QUERY' | 'INVALID_ADDRESS' | 'INVALID_BASE64' {
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

function describe(errors: { path: string; message: string }[]): string {
  return errors.map((error) => (error.path ? `${error.path} ${error.message}` : error.message)).join('; ');
}
