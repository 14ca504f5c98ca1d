/**
 * Validate values and HTTP responses against openapi/relay.yaml.
 *
 *   assertResponseMatchesSpec({ method: 'post', path: '/Account/create', status: 200, body });
 *   validateAgainst('RelayReceipt', value);            // or '#/components/schemas/RelayReceipt'
 *
 * Both throw an Error with a readable ajv message when the value does not match.
 * The spec is read and compiled once per process; compiled validators are cached.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const SPEC_PATH = fileURLToPath(new URL('../../openapi/relay.yaml', import.meta.url));
const SCHEMA_ID = 'https://relay-emulator.local/relay.yaml';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type HttpMethod = (typeof METHODS)[number];
type Json = Record<string, any>;

let specCache: Json | undefined;
let ajvCache: InstanceType<typeof Ajv2020> | undefined;
const validators = new Map<string, ValidateFunction>();

/** The parsed OpenAPI document (parsed once, shared; do not mutate). */
export function loadSpec(): Json {
  specCache ??= parse(readFileSync(SPEC_PATH, 'utf8')) as Json;
  return specCache;
}

function getAjv(): InstanceType<typeof Ajv2020> {
  if (!ajvCache) {
    // strict: false so OpenAPI annotations (example, x-emulator-choice, x-enum-descriptions, ...) are ignored.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    (addFormats as unknown as (a: unknown) => void)(ajv);
    ajv.addSchema({ $id: SCHEMA_ID, components: loadSpec().components });
    ajvCache = ajv;
  }
  return ajvCache;
}

function toRef(schemaRef: string): string {
  if (schemaRef.startsWith('#/')) return SCHEMA_ID + schemaRef;
  if (schemaRef.startsWith('relay.yaml#/')) return SCHEMA_ID + schemaRef.slice('relay.yaml'.length);
  return `${SCHEMA_ID}#/components/schemas/${schemaRef}`;
}

function compile(key: string, schema: unknown): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    v = getAjv().compile(schema as object);
    validators.set(key, v);
  }
  return v;
}

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

function check(v: ValidateFunction, value: unknown, label: string): void {
  if (!v(value)) {
    throw new Error(
      `${label} does not match the spec:\n${formatAjvErrors(v.errors)}\nvalue: ${truncate(JSON.stringify(value))}`,
    );
  }
}

function truncate(s: string | undefined, n = 2000): string {
  if (s === undefined) return 'undefined';
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/**
 * Validate `value` against a schema of the spec: a component name ('RelayReceipt'),
 * a local pointer ('#/components/schemas/RelayReceipt') or 'relay.yaml#/components/...'.
 * Throws on mismatch.
 */
export function validateAgainst(schemaRef: string, value: unknown): void {
  const ref = toRef(schemaRef);
  check(compile(`ref:${ref}`, { $ref: ref }), value, schemaRef);
}

/** Like validateAgainst, but returns the ajv errors instead of throwing (null when valid). */
export function schemaErrors(schemaRef: string, value: unknown): ErrorObject[] | null {
  const ref = toRef(schemaRef);
  const v = compile(`ref:${ref}`, { $ref: ref });
  return v(value) ? null : [...(v.errors ?? [])];
}

function deref(node: Json | undefined): Json | undefined {
  let n = node;
  for (let i = 0; n && typeof n.$ref === 'string' && i < 10; i++) {
    const parts = (n.$ref as string).replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    n = parts.reduce<any>((acc, p) => (acc == null ? undefined : acc[p]), loadSpec());
  }
  return n;
}

/**
 * Find the spec path key for `path`: the exact key, else (ignoring a leading '/api' and a
 * query string) a case-sensitive then case-insensitive match of a concrete path against
 * the templates ('/account/balance/devnet/0/Abc' → '/account/balance/{environment}/{index}/{accountId}').
 */
export function findSpecPath(path: string, method?: string): string | undefined {
  const paths = loadSpec().paths as Json;
  const has = (k: string) => k in paths && (!method || method.toLowerCase() in (paths[k] as Json));
  if (has(path)) return path;
  let p = path.split('?')[0] ?? path;
  if (p.startsWith('/api/')) p = p.slice(4);
  if (has(p)) return p;
  for (const flags of ['', 'i']) {
    for (const key of Object.keys(paths)) {
      const re = new RegExp(
        '^' + key.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+') + '$',
        flags,
      );
      if (re.test(p) && has(key)) return key;
    }
  }
  return undefined;
}

export interface ResponseCheck {
  method: string;
  /** A spec path key ('/Account/create') or a concrete request path. */
  path: string;
  status: number;
  body: unknown;
  /** Response Content-Type (parameters ignored). Defaults to the only/JSON content of the response. */
  contentType?: string | null;
}

/**
 * Throw unless `body` matches the response schema the spec declares for
 * (method, path, status). The response is chosen by exact status, then '4XX'-style
 * ranges, then `default`; the media type by `contentType`.
 */
export function assertResponseMatchesSpec(r: ResponseCheck): void {
  const method = r.method.toLowerCase();
  const key = findSpecPath(r.path, method);
  if (!key) throw new Error(`spec has no operation ${method.toUpperCase()} ${r.path}`);
  const op = (loadSpec().paths as Json)[key][method] as Json;
  const responses = op.responses as Json;
  const statusKey = [String(r.status), `${String(r.status)[0]}XX`, 'default'].find((s) => s in responses);
  if (!statusKey) {
    throw new Error(
      `${method.toUpperCase()} ${key} (${op.operationId}): status ${r.status} is not declared (declared: ${Object.keys(responses).join(', ')})`,
    );
  }
  const response = deref(responses[statusKey] as Json) ?? {};
  const content = response.content as Json | undefined;
  const label = `${method.toUpperCase()} ${key} (${op.operationId}) ${r.status}`;
  if (!content) {
    if (r.body !== undefined && r.body !== null && r.body !== '') {
      throw new Error(`${label}: the spec declares no body but one was sent: ${truncate(JSON.stringify(r.body))}`);
    }
    return;
  }
  const types = Object.keys(content);
  let mediaType: string | undefined;
  if (r.contentType) {
    const ct = r.contentType.split(';')[0]!.trim().toLowerCase();
    mediaType = types.find((t) => t.toLowerCase() === ct);
    if (!mediaType) throw new Error(`${label}: content type ${ct} is not declared (declared: ${types.join(', ')})`);
  } else {
    mediaType = types.length === 1 ? types[0] : (types.find((t) => /json/.test(t)) ?? types[0]);
  }
  const schema = (content[mediaType!] as Json).schema;
  if (!schema) return;
  const ptr = `#/paths/${key.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${statusKey}/${mediaType}`;
  const cacheKey = `resp:${ptr}`;
  // Wrap the inline schema so its local '#/components/...' refs resolve against the spec document.
  const v = compile(cacheKey, rebase(schema));
  check(v, r.body, `${label} ${mediaType} body`);
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

/** Same as assertResponseMatchesSpec, for a fetch Response (reads the body; returns it parsed). */
export async function assertFetchResponseMatchesSpec(
  method: string,
  path: string,
  res: Response,
): Promise<unknown> {
  const contentType = res.headers.get('content-type');
  const text = await res.text();
  const body = contentType && /json/i.test(contentType) && text !== '' ? JSON.parse(text) : text;
  assertResponseMatchesSpec({ method, path, status: res.status, body, contentType });
  return body;
}

/** The operation object for (method, path), with its resolved path key. */
export function getOperation(method: string, path: string): { path: string; method: HttpMethod; operation: Json } {
  const m = method.toLowerCase() as HttpMethod;
  const key = findSpecPath(path, m);
  if (!key) throw new Error(`spec has no operation ${m.toUpperCase()} ${path}`);
  return { path: key, method: m, operation: (loadSpec().paths as Json)[key][m] as Json };
}

export { METHODS as HTTP_METHODS };
