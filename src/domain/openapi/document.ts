import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from '../../base/assets.ts';

/** Where the contract lives; served verbatim at /openapi.yaml. */
export const OPENAPI_PATH = new URL('openapi/relay.yaml', PACKAGE_ROOT);
/** The same document parsed, as JSON (`npm run generate` writes it: scripts/openapi-json.mjs), which the emulator reads. */
const OPENAPI_JSON_PATH = new URL('openapi/relay.json', PACKAGE_ROOT);

let text: string | undefined;
let document: OpenApiDocument | undefined;

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, OpenApiOperation | unknown>>;
  components: { schemas: Record<string, JsonSchema>; [key: string]: unknown };
  [key: string]: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  /** An empty value binds as absent (see src/domain/openapi/model-binding.ts). */
  allowEmptyValue?: boolean;
  'x-aliases'?: string[];
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: (OpenApiParameter | { $ref: string })[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }>; required?: boolean } | { $ref: string };
  responses?: Record<string, unknown>;
  security?: unknown[];
  tags?: string[];
}

export type JsonSchema = Record<string, unknown>;

/** The raw text of openapi/relay.yaml, read once. */
export function openApiText(): string {
  text ??= readFileSync(OPENAPI_PATH, 'utf8');
  return text;
}

/**
 * The parsed contract, read once per process, on its first use (the binder's first request, /docs):
 * openapi/relay.json, the YAML parsed at build time, since parsing the YAML here took ~180 ms of every
 * process's first bound request, and JSON.parse takes ~5.
 */
export function openApiDocument(): OpenApiDocument {
  document ??= JSON.parse(readFileSync(OPENAPI_JSON_PATH, 'utf8')) as OpenApiDocument;
  return document;
}

/** Follows a local `#/…` reference. */
export function resolveRef<T>(value: T | { $ref: string }): T {
  let current: unknown = value;
  for (let depth = 0; depth < 16 && isRef(current); depth += 1) {
    const pointer = current.$ref.replace(/^#\//, '').split('/').map(decodePointer);
    current = pointer.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], openApiDocument());
  }
  return current as T;
}

/** Properties of a schema, through $ref and allOf. */
export function schemaProperties(schema: JsonSchema | null | undefined): Record<string, JsonSchema> {
  if (!schema) return {};
  const resolved = resolveRef<JsonSchema>(schema);
  const own = (resolved.properties as Record<string, JsonSchema> | undefined) ?? {};
  const inherited = ((resolved.allOf as JsonSchema[] | undefined) ?? []).map(schemaProperties);
  return Object.assign({}, ...inherited, own);
}

function isRef(value: unknown): value is { $ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

function decodePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Every operation of the contract by operationId, with its method and path. */
export function operationsById(): Map<string, { method: string; path: string; operation: OpenApiOperation }> {
  return operationsOf(openApiDocument());
}

/** Every operation of an OpenAPI document by operationId, in document order, with its method (upper case) and path. */
export function operationsOf(document: { paths?: Record<string, unknown> }): Map<string, { method: string; path: string; operation: OpenApiOperation }> {
  const operations = new Map<string, { method: string; path: string; operation: OpenApiOperation }>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const op = operation as OpenApiOperation;
      if (op && typeof op === 'object' && typeof op.operationId === 'string') {
        operations.set(op.operationId, { method: method.toUpperCase(), path, operation: op });
      }
    }
  }
  return operations;
}

/** The JSON schema of an operation's request body, or null when it takes none. */
export function requestBodySchema(operation: OpenApiOperation): JsonSchema | null {
  if (!operation.requestBody) return null;
  const body = resolveRef(operation.requestBody) as { content?: Record<string, { schema?: JsonSchema }> };
  return body.content?.['application/json']?.schema ?? null;
}
