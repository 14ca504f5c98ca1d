import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import { addContractFormats } from './formats.ts';
import type { operations } from '../../generated/relay.ts';
import { codeOf, describeErrors, toFieldErrors, TRANSACTION_FIELDS, type FieldError } from './binding-errors.ts';
import { openApiDocument, operationsById, requestBodySchema, resolveRef, schemaProperties, type JsonSchema, type OpenApiParameter } from './document.ts';
import { bindBodyNames, bodyBindingOf, clampMinimumOf, coerce, queryNamesOf, type BodyBinding } from './model-binding.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

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
  body: BodyBinding;
  validateBody: ValidateFunction | null;
  query: { parameter: OpenApiParameter; names: Set<string>; validate: ValidateFunction; clampMinimum: number | null }[];
  /** Refuse query names the operation does not declare (see refusesUnknownQuery). */
  strictQuery: boolean;
}

let binder: RequestBinder | undefined;

/**
 * The process-wide binder; schemas compile once, each on its operation's first request. Made on
 * the first request that binds, not at start-up: ajv, its formats and the contract's parse cost a
 * cold start ~100 ms (BENCHMARKS.md), and an emulator that only relays through the RPC never needs them.
 */
export function requestBinder(): RequestBinder {
  return LAZY_BINDER;
}

const LAZY_BINDER: RequestBinder = {
  body: (operationId, raw) => (binder ??= createBinder()).body(operationId, raw),
  query: (operationId, params, options) => (binder ??= createBinder()).query(operationId, params, options),
};

function createBinder(): RequestBinder {
  // Required, not imported: loaded with the binder (see requestBinder).
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats');
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
    if (!found) throw new InternalError('CONTRACT_MISMATCH', { operationId, problem: 'no such operation in openapi/relay.yaml' });
    const { operation } = found;
    const bodySchema = requestBodySchema(operation);
    entry = {
      body: bodyBindingOf(Object.entries(schemaProperties(bodySchema))),
      validateBody: bodySchema ? compile(bodySchema) : null,
      query: (operation.parameters ?? [])
        .map((parameter) => resolveRef<OpenApiParameter>(parameter))
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => ({
          parameter,
          names: queryNamesOf(parameter),
          validate: compile(parameter.schema ?? {}),
          clampMinimum: clampMinimumOf(parameter),
        })),
      strictQuery: refusesUnknownQuery(operation),
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
      const canonical = bindBodyNames(raw, entry.body);
      if (entry.validateBody && !entry.validateBody(canonical)) {
        const errors = toFieldErrors(entry.validateBody.errors, canonical);
        const code = codeOf(entry.validateBody.errors, 'VALIDATION_FAILED');
        // A relayed transaction that is not base64 breaks rule W1 of the fee-payer policy, whichever checks first.
        const rule = code === 'INVALID_BASE64' && errors.every((error) => TRANSACTION_FIELDS.has(error.path)) ? { rule: 'W1' as const } : {};
        throw new RelayError(code, describeErrors(errors), { errors, ...rule });
      }
      return canonical as RequestBody<Id>;
    },

    query<Id extends OperationId, Defaulted extends keyof QueryParameters<Id> = never>(
      operationId: Id,
      params: URLSearchParams,
      options?: { defaulted: readonly Defaulted[] },
    ) {
      const entry = bound(operationId);
      for (const name of options?.defaulted ?? []) {
        const declared = entry.query.find(({ parameter }) => parameter.name === name)?.parameter;
        if (!declared?.required && (declared?.schema as { default?: unknown } | undefined)?.default === undefined) {
          throw new InternalError('CONTRACT_MISMATCH', { operationId, problem: `query parameter ${String(name)} has no default in openapi/relay.yaml` });
        }
      }
      const result: Record<string, unknown> = {};
      const errors: FieldError[] = [];
      const failures: ErrorObject[] = [];
      if (entry.strictQuery) unknownQueryNames(entry, params, errors);
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
      if (errors.length > 0) throw new RelayError(missing ? 'INVALID_QUERY' : codeOf(failures, 'INVALID_QUERY'), describeErrors(errors), { errors });
      return result as QueryParameters<Id> & Required<Pick<QueryParameters<Id>, Defaulted>>;
    },
  };
}

/**
 * The current interface's and the emulator's own operations refuse a query parameter they do not
 * declare (400 INVALID_QUERY, naming what they take), where ASP.NET and NestJS ignore it: a name
 * the spec does not show (the mint filter, the maximum count) guessed wrong would otherwise answer
 * as if it were not sent (issue 45, item 12). Legacy operations ignore it, as Kinetic's NestJS did.
 */
function refusesUnknownQuery(operation: { tags?: string[] }): boolean {
  return (operation.tags ?? []).some((tag) => tag === 'current' || tag === 'emulator');
}

function unknownQueryNames(entry: BoundOperation, params: URLSearchParams, errors: FieldError[]): void {
  const declared = entry.query.map(({ parameter }) => [parameter.name, ...(parameter['x-aliases'] ?? [])].join(' or '));
  for (const key of new Set(params.keys())) {
    const name = key.toLowerCase();
    if (entry.query.some(({ names }) => names.has(name))) continue;
    errors.push({
      path: key,
      message:
        declared.length === 0 ? 'is not a query parameter: this operation takes none' : `is not a query parameter: this operation takes ${declared.join(', ')}`,
    });
  }
}

/** `#/…` references of the contract made absolute, so that the compiled schema finds them in ajv's copy. */
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
