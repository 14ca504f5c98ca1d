/**
 * Validates values and HTTP responses against the OpenAPI contract (openapi/relay.yaml).
 *
 *   const contract = defaultContractValidator();
 *   contract.validateResponse({ method: 'post', path: '/Account/create', status: 200, body }).error; // null when valid
 *   contract.schemaErrors('RelayReceipt', value);                                                // null when valid
 *
 * It ships with the conformance kit and is reused by the project's tests (test/support/openapi.ts),
 * so there is one ajv set-up for the contract. The document is parsed and each schema compiled once
 * per validator; `defaultContractValidator()` is shared by the process.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { OPENAPI_PATH, openApiDocument } from '../domain/openapi/document.ts';
import { addContractFormats } from '../domain/openapi/formats.ts';

/** Absolute path of the contract shipped with this package (openapi/relay.yaml). */
export const CONTRACT_PATH = fileURLToPath(OPENAPI_PATH);

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document as parsed YAML, walked by JSON pointers.
type Json = Record<string, any>;

export interface ContractValidatorOptions {
  /** The parsed OpenAPI document. Default: `specPath` parsed, else the shipped contract as the emulator parsed it (one parse per process). */
  document?: Json;
  /** Where to read the document from when `document` is not given. Default: CONTRACT_PATH. */
  specPath?: string;
}

export interface ResponseToValidate {
  method: string;
  /** A spec path key ('/Account/create') or a concrete request path ('/app/devnet/1/config'). */
  path: string;
  status: number;
  body: unknown;
  /** Response Content-Type (parameters ignored). Default: the only, else the JSON, content of the response. */
  contentType?: string | null;
}

export interface ResponseValidation {
  /** The matched spec path key, when the operation exists. */
  pathKey?: string;
  operationId?: string;
  /** Null when the response matches the contract, else a readable multi-line explanation. */
  error: string | null;
}

export interface ContractOperation {
  path: string;
  method: HttpMethod;
  operation: Json;
}

export interface ContractValidator {
  /** The parsed document (shared; do not mutate). */
  readonly document: Json;
  /** Errors of `value` against a schema ('RelayReceipt', '#/components/schemas/X' or 'relay.yaml#/...'); null when valid. */
  schemaErrors(schemaRef: string, value: unknown): ErrorObject[] | null;
  /** The spec path key of a concrete or template path (see findSpecPath in this file's implementation). */
  findPath(path: string, method?: string): string | undefined;
  operation(method: string, path: string): ContractOperation | undefined;
  validateResponse(response: ResponseToValidate): ResponseValidation;
}

const SCHEMA_ID = 'https://relay-emulator.local/relay.yaml';

/** Readable multi-line rendering of ajv errors. */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const where = e.instancePath || '(root)';
      const extra =
        e.keyword === 'enum'
          ? ` ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}`
          : e.keyword === 'additionalProperties'
            ? ` (${(e.params as { additionalProperty?: string }).additionalProperty})`
            : '';
      return `  ${where} ${e.message ?? e.keyword}${extra}  [schema ${e.schemaPath}]`;
    })
    .join('\n');
}

export function truncate(s: string | undefined, n = 2000): string {
  if (s === undefined) return 'undefined';
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

export function createContractValidator(options: ContractValidatorOptions = {}): ContractValidator {
  const document = options.document ?? (options.specPath ? readDocument(options.specPath) : (openApiDocument() as Json));
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  // strict: false so OpenAPI annotations (example, x-emulator-choice, x-enum-descriptions, ...) are ignored.
  addFormats.default(ajv);
  addContractFormats(ajv);
  ajv.addSchema({ $id: SCHEMA_ID, components: document.components });
  const validators = new Map<string, ValidateFunction>();
  const paths = (document.paths ?? {}) as Json;

  function compile(key: string, schema: unknown): ValidateFunction {
    let v = validators.get(key);
    if (!v) {
      v = ajv.compile(schema as object);
      validators.set(key, v);
    }
    return v;
  }

  function toRef(schemaRef: string): string {
    if (schemaRef.startsWith('#/')) return SCHEMA_ID + schemaRef;
    if (schemaRef.startsWith('relay.yaml#/')) return SCHEMA_ID + schemaRef.slice('relay.yaml'.length);
    return `${SCHEMA_ID}#/components/schemas/${schemaRef}`;
  }

  function deref(node: Json | undefined): Json | undefined {
    let n = node;
    for (let i = 0; n && typeof n.$ref === 'string' && i < 10; i++) {
      const parts = (n.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
      // biome-ignore lint/suspicious/noExplicitAny: a JSON pointer walk over the parsed document.
      n = parts.reduce<any>((acc, p) => (acc == null ? undefined : acc[p]), document);
    }
    return n;
  }

  /**
   * The spec path key for `path`: the exact key, else (ignoring a leading '/api' and a query
   * string) a case-sensitive then case-insensitive match of a concrete path against the templates
   * ('/account/balance/devnet/0/Abc' → '/account/balance/{environment}/{index}/{accountId}').
   */
  function findPath(path: string, method?: string): string | undefined {
    const has = (k: string) => k in paths && (!method || method.toLowerCase() in (paths[k] as Json));
    if (has(path)) return path;
    let p = path.split('?')[0] ?? path;
    if (p.startsWith('/api/')) p = p.slice(4);
    if (has(p)) return p;
    for (const flags of ['', 'i']) {
      for (const key of Object.keys(paths)) {
        const re = new RegExp(
          '^' +
            key
              .split(/\{[^}]+\}/)
              .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
              .join('[^/]+') +
            '$',
          flags,
        );
        if (re.test(p) && has(key)) return key;
      }
    }
    return undefined;
  }

  function operation(method: string, path: string): ContractOperation | undefined {
    const m = method.toLowerCase() as HttpMethod;
    const key = findPath(path, m);
    if (!key) return undefined;
    return { path: key, method: m, operation: (paths[key] as Json)[m] as Json };
  }

  function validateResponse(r: ResponseToValidate): ResponseValidation {
    const method = r.method.toLowerCase();
    const found = operation(method, r.path);
    if (!found) return { error: `spec has no operation ${method.toUpperCase()} ${r.path}` };
    const { path: key, operation: op } = found;
    const operationId = op.operationId as string | undefined;
    const result = (error: string | null): ResponseValidation => ({ pathKey: key, operationId, error });
    const responses = (op.responses ?? {}) as Json;
    const statusKey = [String(r.status), `${String(r.status)[0]}XX`, 'default'].find((s) => s in responses);
    if (!statusKey) {
      return result(`${method.toUpperCase()} ${key} (${operationId}): status ${r.status} is not declared (declared: ${Object.keys(responses).join(', ')})`);
    }
    const response = deref(responses[statusKey] as Json) ?? {};
    const content = response.content as Json | undefined;
    const label = `${method.toUpperCase()} ${key} (${operationId}) ${r.status}`;
    if (!content) {
      if (r.body !== undefined && r.body !== null && r.body !== '') {
        return result(`${label}: the spec declares no body but one was sent: ${truncate(JSON.stringify(r.body))}`);
      }
      return result(null);
    }
    const types = Object.keys(content);
    let mediaType: string | undefined;
    if (r.contentType) {
      const ct = (r.contentType.split(';')[0] ?? '').trim().toLowerCase();
      mediaType = types.find((t) => t.toLowerCase() === ct);
      if (!mediaType) return result(`${label}: content type ${ct} is not declared (declared: ${types.join(', ')})`);
    } else {
      mediaType = types.length === 1 ? types[0] : (types.find((t) => /json/.test(t)) ?? types[0]);
    }
    const schema = mediaType === undefined ? undefined : (content[mediaType] as Json).schema;
    if (!schema) return result(null);
    const ptr = `#/paths/${key.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${statusKey}/${mediaType}`;
    // Wrap the inline schema so its local '#/components/...' refs resolve against the spec document.
    const v = compile(`resp:${ptr}`, rebase(schema));
    if (v(r.body)) return result(null);
    return result(`${label} ${mediaType} body does not match the spec:\n${formatAjvErrors(v.errors)}\nvalue: ${truncate(JSON.stringify(r.body))}`);
  }

  return {
    document,
    schemaErrors(schemaRef, value) {
      const ref = toRef(schemaRef);
      const v = compile(`ref:${ref}`, { $ref: ref });
      return v(value) ? null : [...(v.errors ?? [])];
    },
    findPath,
    operation,
    validateResponse,
  };
}

/** Key uniqueness is not re-checked here (slow on a large document); the spec lint test guards it. */
function readDocument(path: string): Json {
  return parse(readFileSync(path, 'utf8'), { uniqueKeys: false }) as Json;
}

/** Rewrite local refs of an inline schema to absolute refs into the spec document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(schema as Json)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? SCHEMA_ID + v : rebase(v);
    }
    return out;
  }
  return schema;
}

let shared: ContractValidator | undefined;

/** The validator of the shipped contract, created once per process. */
export function defaultContractValidator(): ContractValidator {
  shared ??= createContractValidator();
  return shared;
}
