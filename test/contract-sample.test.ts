/**
 * The contract is exact (issue 16): a sample of requests generated from openapi/relay.yaml with
 * fast-check, valid by the schema, is never refused for a reason the schema does not state; and
 * requests made invalid in one place (a required property dropped, a value of the wrong type, a
 * query value outside its schema) are refused.
 *
 * "A reason the schema does not state" is a schema-level refusal of a schema-valid request:
 * VALIDATION_FAILED, INVALID_QUERY, INVALID_ADDRESS, INVALID_BASE64, MALFORMED_JSON or
 * UNSUPPORTED_MEDIA_TYPE (or, on legacy routes, whose bodies carry no code, their messages).
 * Refusals the contract states in words (an unknown app or mint 404, a transaction that does not
 * decode 400 INVALID_TRANSACTION, a policy rule 422) are the domain's, and allowed. Runs are
 * seeded (CONTRACT_SEED to explore) and bounded (CONTRACT_RUNS scales them).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec, assertResponseMatchesSpec, loadSpec } from './support/openapi.ts';
import { schemaArbitrary } from './support/schema-arbitrary.ts';
import { ALICE, BOB, KIN, USDC } from './support/transactions.ts';

const SEED = Number(process.env.CONTRACT_SEED ?? 20_260_116);
const SCALE = Number(process.env.CONTRACT_RUNS ?? 1);
const RUNS = Math.max(1, Math.round(12 * SCALE));

type Json = Record<string, any>;
const spec = loadSpec();
const deref = (node: Json): Json => {
  let current = node;
  while (current && typeof current.$ref === 'string')
    current = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<any>((at, part) => at?.[part], spec);
  return current;
};

/** Codes a schema-valid request must never get: refusals of its shape, which the schema states exactly. */
const SCHEMA_CODES = new Set(['VALIDATION_FAILED', 'INVALID_QUERY', 'INVALID_ADDRESS', 'INVALID_BASE64', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE']);
/** The same refusals on the legacy routes, by their messages (their bodies carry no code). */
const LEGACY_SCHEMA_MESSAGE = new RegExp(
  [
    ' must (?:be (?:string|integer|number|boolean|object|array|null|equal|[<>])|match|have|NOT)',
    'must not have both',
    'numeric string is expected',
    'not a valid base58',
    'not a base58',
    'not valid JSON',
    'not valid UTF-8',
    'Content-Type',
    'padded base64',
    'body must be a JSON object',
  ].join('|'),
);

interface Operation {
  method: string;
  template: string;
  operationId: string;
  root: boolean;
  tag: string;
  parameters: Json[];
  body: Json | null;
  /** The body's media type: JSON, or raw bytes (a program's ELF). */
  bodyType: 'application/json' | 'application/octet-stream';
  bodyRequired: boolean;
}

/**
 * The operations whose refusals are the contract's problem codes: current, legacy and the controls
 * (not the RPC, whose errors are JSON-RPC's, nor the meta routes, which take no input).
 */
const OPERATIONS: Operation[] = Object.entries(spec.paths as Json).flatMap(([template, item]) =>
  ['get', 'post', 'put', 'delete'].flatMap((method) => {
    const op = (item as Json)[method] as Json | undefined;
    if (!op || template === '/rpc' || !(op.tags as string[]).some((tag) => tag === 'current' || tag === 'legacy' || template.startsWith('/__emulator')))
      return [];
    const requestBody = op.requestBody ? deref(op.requestBody) : null;
    return [
      {
        method: method.toUpperCase(),
        template,
        operationId: op.operationId as string,
        root: Boolean((item as Json).servers ?? op.servers),
        tag: (op.tags as string[])[0]!,
        parameters: [...((item as Json).parameters ?? []), ...(op.parameters ?? [])].map(deref),
        body: requestBody?.content?.['application/json']?.schema ?? requestBody?.content?.['application/octet-stream']?.schema ?? null,
        bodyType: requestBody?.content?.['application/octet-stream'] ? ('application/octet-stream' as const) : ('application/json' as const),
        bodyRequired: requestBody?.required === true,
      },
    ];
  }),
);

/** Values the fixtures know, drawn as often as random ones: random values mostly reach only the first check. */
const KNOWN: Record<string, unknown[]> = {
  environment: ['devnet'],
  index: [1],
  accountAddress: [ALICE.publicKey.toBase58(), BOB.publicKey.toBase58()],
  WalletAddress: [ALICE.publicKey.toBase58()],
  accountId: [ALICE.publicKey.toBase58()],
  account: [ALICE.publicKey.toBase58()],
  address: [ALICE.publicKey.toBase58()],
  mint: [USDC.toBase58(), KIN.toBase58()],
  mintAddress: [USDC.toBase58()],
  MintAddress: [USDC.toBase58()],
};
const arbitraryOf = (schema: Json, name = '') => schemaArbitrary(schema, { deref, known: (key) => KNOWN[key] }, name);

interface Sample {
  path: Record<string, unknown>;
  query: [string, unknown][];
  body: unknown;
}

function sampleArbitrary(op: Operation): fc.Arbitrary<Sample> {
  const path = fc.record(Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, arbitraryOf(p.schema, p.name)])));
  const query = fc
    .tuple(
      ...op.parameters
        .filter((p) => p.in === 'query')
        .map((p) =>
          p.required
            ? arbitraryOf(p.schema, p.name).map((value) => [[p.name, value]])
            : fc.option(arbitraryOf(p.schema, p.name), { nil: undefined }).map((value) => (value === undefined ? [] : [[p.name, value]])),
        ),
    )
    .map((lists) => lists.flat() as [string, unknown][]);
  const body = !op.body ? fc.constant(undefined) : op.bodyType === 'application/octet-stream' ? fc.uint8Array({ maxLength: 256 }) : arbitraryOf(op.body);
  return fc.record({ path, query, body });
}

/** `.` and `..` cannot be sent as path segments (URLs resolve them away), whatever the schema says. */
const sendable = (sample: Sample) => Object.values(sample.path).every((value) => value !== '.' && value !== '..' && String(value) !== '');

let h: Harness;
let origin: string;

beforeAll(async () => {
  h = await startHarness();
  origin = new URL(h.emulator.config.baseUrl).origin;
});
afterAll(() => h?.close());

interface Answer {
  status: number;
  body: any;
}

async function send(op: Operation, sample: Sample, rawBody?: string): Promise<Answer> {
  const path = op.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(sample.path[name])));
  const query = sample.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`).join('&');
  const url = `${op.root ? origin : h.emulator.config.baseUrl}${path}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = op.tag === 'current' ? { 'X-API-Key': h.emulator.config.apiKey } : {};
  const bytes = sample.body instanceof Uint8Array ? new Uint8Array(sample.body) : undefined;
  const body = rawBody ?? bytes ?? (sample.body === undefined ? undefined : JSON.stringify(sample.body));
  if (body !== undefined) headers['Content-Type'] = bytes ? op.bodyType : 'application/json';
  const response = await fetch(url, { method: op.method, headers, body });
  if (/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) {
    // GET /__emulator/events never ends: its status and media type are checked, its body let go (not
    // awaited: MSW tees a response, and a branch's cancel settles only once both are cancelled).
    void response.body?.cancel().catch(() => {});
    assertResponseMatchesSpec({ method: op.method, path: op.template, status: response.status, body: '', contentType: response.headers.get('content-type') });
    return { status: response.status, body: '' };
  }
  const parsed = await assertFetchResponseMatchesSpec(op.method, op.template, response);
  return { status: response.status, body: parsed };
}

/** The schema-level code (or legacy message) a response refused with, or null. */
function schemaRefusal(op: Operation, answer: Answer): string | null {
  if (answer.status < 400) return null;
  if (op.tag === 'legacy') return typeof answer.body?.message === 'string' && LEGACY_SCHEMA_MESSAGE.test(answer.body.message) ? answer.body.message : null;
  return SCHEMA_CODES.has(answer.body?.code) ? `${answer.body.code}: ${answer.body.detail}` : null;
}

/** Controls that change what later requests see are undone after each sample. */
const changesState = (op: Operation) => op.root && op.method !== 'GET';

describe('schema-valid requests are not refused for reasons the schema does not state', () => {
  for (const op of OPERATIONS) {
    it(`${op.method} ${op.template}`, async () => {
      await fc.assert(
        fc.asyncProperty(sampleArbitrary(op).filter(sendable), async (sample) => {
          const answer = await send(op, sample);
          if (changesState(op)) await h.emulator.reset();
          expect(answer.status, JSON.stringify(sample)).toBeLessThan(500);
          expect(schemaRefusal(op, answer), `${JSON.stringify(sample)} → ${answer.status} ${JSON.stringify(answer.body)}`).toBeNull();
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});

/** One place made invalid: a required property dropped, or a property given a value of another type. */
function breakBody(body: Json, schema: Json): fc.Arbitrary<{ body: Json; broken: string }> {
  const resolved = deref(schema);
  const properties: Record<string, Json> = Object.assign(
    {},
    ...((resolved.allOf as Json[] | undefined) ?? []).map((part) => deref(part).properties ?? {}),
    resolved.properties ?? {},
  );
  const required: string[] = [...(resolved.required ?? []), ...((resolved.allOf as Json[] | undefined) ?? []).flatMap((part) => deref(part).required ?? [])];
  const options: fc.Arbitrary<{ body: Json; broken: string }>[] = [];
  if (required.length > 0) {
    options.push(
      fc
        .constantFrom(...required)
        .map((name) => ({ body: Object.fromEntries(Object.entries(body).filter(([key]) => key !== name)), broken: `${name} dropped` })),
    );
  }
  const names = Object.keys(properties);
  if (names.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...names), fc.constantFrom<unknown>({ nested: true }, [1, 2], true, 1.5))
        .filter(([name, value]) => !accepts(deref(properties[name]!), value))
        .map(([name, value]) => ({ body: { ...body, [name]: value }, broken: `${name} = ${JSON.stringify(value)}` })),
    );
  }
  return options.length === 0 ? fc.constant({ body: [] as unknown as Json, broken: 'an array body' }) : fc.oneof(...options);
}

/** Whether a schema's type allows a value (enough for the wrong-type values above). */
function accepts(schema: Json, value: unknown): boolean {
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return !schema.enum && !('const' in schema) && !schema.$ref;
  const typeOf = Array.isArray(value)
    ? 'array'
    : value === null
      ? 'null'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;
  return types.includes(typeOf) || (typeOf === 'integer' && types.includes('number'));
}

describe('schema-invalid requests are refused', () => {
  for (const op of OPERATIONS.filter((candidate) => candidate.body && deref(candidate.body).type === 'object')) {
    it(`${op.method} ${op.template}: a body broken in one place`, async () => {
      await fc.assert(
        fc.asyncProperty(
          sampleArbitrary(op)
            .filter(sendable)
            .chain((sample) => breakBody(sample.body as Json, op.body!).map((broken) => ({ sample, ...broken }))),
          async ({ sample, body, broken }) => {
            const answer = await send(op, sample, JSON.stringify(body));
            if (changesState(op)) await h.emulator.reset();
            expect(answer.status, `${broken}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400);
            expect(answer.status, `${broken}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }

  for (const op of OPERATIONS.filter((candidate) =>
    candidate.parameters.some((p) => p.in === 'query' && (deref(p.schema).enum || deref(p.schema).type === 'integer')),
  )) {
    it(`${op.method} ${op.template}: a query value outside its schema`, async () => {
      const parameters = op.parameters.filter((p) => p.in === 'query' && (deref(p.schema).enum || deref(p.schema).type === 'integer'));
      await fc.assert(
        fc.asyncProperty(
          sampleArbitrary(op).filter(sendable),
          fc.constantFrom(...parameters),
          fc.constantFrom('', 'x', '1.5', '-', '99999999999999999999', '1e3', ' 1'),
          async (sample, parameter, value) => {
            const schema = deref(parameter.schema);
            if (
              schema.enum?.includes(value) ||
              (schema.type === 'integer' &&
                /^\d+$/.test(value) &&
                Number(value) >= (schema.minimum ?? -Infinity) &&
                Number(value) <= (schema.maximum ?? Infinity))
            )
              return;
            const query = [...sample.query.filter(([name]) => name !== parameter.name), [parameter.name, value] as [string, unknown]];
            const answer = await send(op, { ...sample, query });
            expect(answer.status, `${parameter.name}=${value}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400);
            expect(answer.status).toBeLessThan(500);
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});
