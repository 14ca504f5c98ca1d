import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { RelayError } from '../errors/relay-error.ts';
import { addContractFormats } from './formats.ts';
import type { operations } from '../generated/relay.ts';
import { openApiDocument, operationsById, resolveRef, type JsonSchema, type OpenApiOperation, type OpenApiParameter } from './document.ts';

/**
 * Binds requests the way the real service's ASP.NET model binding does, then validates them
 * against openapi/relay.yaml:
 * - JSON property names and query names match case-insensitively (`SignedTransaction` binds to
 *   `signedTransaction`); the `x-aliases` of a parameter or a body property bind too (`Page` →
 *   `PageNumber`, `transaction` → `signedTransaction`), below the name itself;
 * - a body property marked `x-empty-as-absent` binds `""` as absent (`mintAddress: ""` is no mint);
 * - query values are coerced to the schema's type; schema defaults are applied; a parameter's
 *   `x-clamp: { minimum }` raises a smaller valid value to it (Android's `Page=0` is page 1). An
 *   empty query value (`?operation=`) is a value like any other, checked against the schema,
 *   except for a parameter marked `allowEmptyValue`, where it binds as absent (as ASP.NET binds
 *   `""` to a string: null);
 * - an integer past 2^53 (or any number JSON cannot keep exactly) does not bind as an integer.
 * The result carries the canonical names of the contract, typed by the types generated from it:
 * what passed validation against an operation's schema has that operation's type. These rules live
 * in the contract, so a request form real clients send is declared once there, never special-cased
 * in a handler.
 */
export interface RequestBinder {
  body<Id extends OperationId>(operationId: Id, raw: unknown): RequestBody<Id>;
  /**
   * `defaulted` names parameters the caller relies on being present because the contract gives
   * them a default (the generated type marks them optional); the binder checks that it does.
   */
  query<Id extends OperationId, Defaulted extends keyof QueryParameters<Id> = never>(
    operationId: Id,
    params: URLSearchParams,
    options?: { defaulted: readonly Defaulted[] },
  ): QueryParameters<Id> & Required<Pick<QueryParameters<Id>, Defaulted>>;
}

interface BodyName {
  canonical: string;
  /** 0 for an alias, 1 for the name itself. */
  rank: number;
}

/** An operationId of openapi/relay.yaml. */
export type OperationId = keyof operations & string;

/** The JSON request body of an operation, as generated from the contract. */
export type RequestBody<Id extends OperationId> = operations[Id] extends { requestBody?: infer Body }
  ? NonNullable<Body> extends { content: { 'application/json': infer Json } }
    ? Json
    : never
  : never;

/** The query parameters of an operation, as generated from the contract. */
export type QueryParameters<Id extends OperationId> = NonNullable<operations[Id]['parameters']['query']>;

interface BoundOperation {
  bodyNames: Map<string, BodyName>;
  /** Body properties whose empty string binds as absent. */
  emptyAsAbsent: Set<string>;
  validateBody: ValidateFunction | null;
  query: { parameter: OpenApiParameter; names: Set<string>; validate: ValidateFunction; clampMinimum: number | null }[];
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
    const properties = Object.entries(schemaProperties(bodySchema));
    entry = {
      bodyNames: new Map(
        properties.flatMap(([name, schema]) => [
          ...aliasesOf(schema).map((alias): [string, BodyName] => [alias.toLowerCase(), { canonical: name, rank: 0 }]),
          [name.toLowerCase(), { canonical: name, rank: 1 }] as [string, BodyName],
        ]),
      ),
      emptyAsAbsent: new Set(properties.filter(([, schema]) => schema['x-empty-as-absent'] === true).map(([name]) => name)),
      validateBody: bodySchema ? compile(bodySchema) : null,
      query: (operation.parameters ?? [])
        .map((parameter) => resolveRef<OpenApiParameter>(parameter))
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => ({
          parameter,
          names: new Set([parameter.name, ...(parameter['x-aliases'] ?? [])].map((name) => name.toLowerCase())),
          validate: compile(parameter.schema ?? {}),
          clampMinimum: clampMinimumOf(parameter),
        })),
    };
    cache.set(operationId, entry);
    return entry;
  }

  return {
    // The casts below are the binder's promise: the value was just validated against the schema
    // the generated type was made from.
    body<Id extends OperationId>(operationId: Id, raw: unknown) {
      const entry = bound(operationId);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        throw new RelayError('VALIDATION_FAILED', 'The request body must be a JSON object.', {
          errors: [{ path: '', message: 'must be object' }],
        });
      }
      const canonical: Record<string, unknown> = {};
      const ranks = new Map<string, number>();
      for (const [key, value] of Object.entries(raw)) {
        const bound = entry.bodyNames.get(key.toLowerCase());
        const name = bound?.canonical ?? key;
        // The name in its exact case wins over the name in another case, which wins over an alias.
        const rank = bound ? bound.rank * 2 + (key === name ? 1 : 0) : 3;
        if ((ranks.get(name) ?? -1) >= rank) continue;
        ranks.set(name, rank);
        if (entry.emptyAsAbsent.has(name) && value === '') delete canonical[name];
        else canonical[name] = value;
      }
      if (entry.validateBody && !entry.validateBody(canonical)) {
        const errors = toFieldErrors(entry.validateBody.errors);
        const code = codeOf(entry.validateBody.errors, 'VALIDATION_FAILED');
        // A relayed transaction that is not base64 breaks rule W1 of the fee-payer policy, whichever checks first.
        const rule = code === 'INVALID_BASE64' && errors.every((error) => TRANSACTION_FIELDS.has(error.path)) ? { rule: 'W1' } : {};
        throw new RelayError(code, describe(errors), { errors, ...rule });
      }
      return canonical as RequestBody<Id>;
    },

    query<Id extends OperationId, Defaulted extends keyof QueryParameters<Id> = never>(operationId: Id, params: URLSearchParams, options?: { defaulted: readonly Defaulted[] }) {
      const entry = bound(operationId);
      for (const name of options?.defaulted ?? []) {
        const declared = entry.query.find(({ parameter }) => parameter.name === name)?.parameter;
        if (!declared?.required && (declared?.schema as { default?: unknown } | undefined)?.default === undefined) {
          throw new Error(`${operationId}: query parameter ${String(name)} has no default in openapi/relay.yaml`);
        }
      }
      const result: Record<string, unknown> = {};
      const errors: { path: string; message: string }[] = [];
      const failures: ErrorObject[] = [];
      for (const { parameter, names, validate, clampMinimum } of entry.query) {
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
        result[parameter.name] = clampMinimum !== null && typeof value === 'number' && value < clampMinimum ? clampMinimum : value;
      }
      const missing = errors.length > toFieldErrors(failures).length;
      if (errors.length > 0) throw new RelayError(missing ? 'INVALID_QUERY' : codeOf(failures, 'INVALID_QUERY'), describe(errors), { errors });
      return result as QueryParameters<Id> & Required<Pick<QueryParameters<Id>, Defaulted>>;
    },
  };
}

function aliasesOf(schema: JsonSchema): string[] {
  const aliases = schema['x-aliases'];
  return Array.isArray(aliases) ? aliases.filter((alias): alias is string => typeof alias === 'string') : [];
}

function clampMinimumOf(parameter: OpenApiParameter): number | null {
  const clamp = (parameter as { 'x-clamp'?: { minimum?: unknown } })['x-clamp'];
  return typeof clamp?.minimum === 'number' ? clamp.minimum : null;
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

/** The body fields that carry a transaction to relay (current and legacy). */
const TRANSACTION_FIELDS: ReadonlySet<string> = new Set(['signedTransaction', 'tx']);

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
