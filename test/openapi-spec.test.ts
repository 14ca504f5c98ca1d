// Over 250 lines: the contract's checks (lint, generated types, completeness against the spec, served routes) read one parsed document.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { createConfig, lint } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { HTTP_METHODS, SPEC_PATH, assertResponseMatchesSpec, loadSpec, schemaErrors, validateAgainst } from './support/openapi.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVICE_SPEC = readFileSync(join(ROOT, 'docs/relay-service-spec.md'), 'utf8');
type Json = Record<string, any>;
const spec = loadSpec();

// ---------------------------------------------------------------- markdown parsing

interface MdTable {
  header: string[];
  rows: string[][];
  /** The last non-empty, non-table line before the table. */
  lead: string;
}

/** Text of the section whose heading starts with `heading` (e.g. '### 4.1 '), up to the next heading of the same or higher level. */
function section(md: string, heading: string): string {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith(heading));
  if (start < 0) throw new Error(`service spec has no heading ${heading}`);
  const level = heading.match(/^#+/)![0].length;
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const h = line.match(/^(#+) /);
    if (h && h[1]!.length <= level) break;
    out.push(line);
  }
  return out.join('\n');
}

function tables(text: string): MdTable[] {
  const result: MdTable[] = [];
  const lines = text.split('\n');
  let lead = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line.startsWith('|')) {
      if (line) lead = line;
      continue;
    }
    const block: string[] = [];
    while (i < lines.length && lines[i]!.trim().startsWith('|')) block.push(lines[i++]!.trim());
    i--;
    const cells = (l: string) =>
      l
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split('|')
        .map((c) => c.trim());
    result.push({ header: cells(block[0]!), rows: block.slice(2).map(cells), lead });
  }
  return result;
}

function tableWith(text: string, first: string, second?: string): MdTable[] {
  return tables(text).filter((t) => t.header[0] === first && (second === undefined || t.header[1] === second));
}

// ---------------------------------------------------------------- schema helpers

function deref(node: Json | undefined): Json | undefined {
  let n = node;
  while (n && typeof n.$ref === 'string') {
    n = (n.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((acc, p) => acc?.[p], spec);
  }
  return n;
}

/** Properties of a schema, following $ref and allOf. */
function propertiesOf(schema: Json | undefined): Record<string, Json> {
  const s = deref(schema);
  if (!s) return {};
  const own = { ...(s.properties ?? {}) } as Record<string, Json>;
  for (const part of (s.allOf ?? []) as Json[]) Object.assign(own, propertiesOf(part));
  return own;
}

/** The schema of a dotted property path ('environment.cluster.endpoint') inside a component schema. */
function propertyAt(schemaName: string, dotted: string): Json | undefined {
  let current: Json | undefined = spec.components.schemas[schemaName];
  for (const part of dotted.split('.')) {
    current = propertiesOf(current)[part];
    if (!current) return undefined;
  }
  return current;
}

function at(pointer: string): any {
  return pointer
    .replace(/^#?\//, '')
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((acc, p) => acc?.[p], spec);
}

function operations(): { path: string; method: string; op: Json }[] {
  const out: { path: string; method: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(spec.paths as Json)) {
    for (const m of HTTP_METHODS) if ((item as Json)[m]) out.push({ path, method: m, op: (item as Json)[m] });
  }
  return out;
}

function historyParam(name: string): Json {
  const params = spec.paths['/Account/gethistory'].post.parameters as Json[];
  const p = params.find((x) => x.name === name);
  if (!p) throw new Error(`getHistory has no parameter ${name}`);
  return p;
}

// ---------------------------------------------------------------- tests

describe('openapi/relay.yaml', () => {
  it('is a valid OpenAPI 3.1 document (redocly recommended ruleset, zero errors)', async () => {
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        // /health, /openapi.yaml and /docs have no 4xx answer at all; declaring a fake one
        // would make the contract lie, so this stays a warning (warnings are tolerated).
        'operation-4xx-response': 'warn',
      },
    });
    const problems = await lint({ ref: SPEC_PATH, config });
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`)).toEqual([]);
  });

  it('declares the server, tags and security schemes', () => {
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.servers[0].url).toBe('http://127.0.0.1:8787/api');
    expect(spec.tags.map((t: Json) => t.name)).toEqual(['current', 'legacy', 'emulator', 'kora']);
    expect(spec.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(spec.components.securitySchemes.BearerToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(spec.info.description).toMatch(/x-emulator-choice/);
    expect(spec.info.description).toMatch(/case-insensitive/);
    expect(spec.info.description).toMatch(/`Page`/);
  });

  describe('completeness against docs/relay-service-spec.md', () => {
    it('has every endpoint of the 4.1 table', () => {
      const [table] = tableWith(section(SERVICE_SPEC, '### 4.1 '), 'Method', 'Path');
      expect(table?.rows.length).toBeGreaterThanOrEqual(8);
      for (const [method, path] of table!.rows) {
        expect(spec.paths[path!]?.[method!.toLowerCase()], `${method} ${path}`).toBeDefined();
        expect(spec.paths[path!][method!.toLowerCase()].tags).toEqual(['current']);
      }
    });

    it('has every endpoint of the 4.3 table', () => {
      const [table] = tableWith(section(SERVICE_SPEC, '### 4.3 '), 'Method', 'Path');
      expect(table?.rows.length).toBeGreaterThanOrEqual(6);
      for (const [method, path] of table!.rows) {
        expect(spec.paths[path!]?.[method!.toLowerCase()], `${method} ${path}`).toBeDefined();
        expect(spec.paths[path!][method!.toLowerCase()].tags).toEqual(['legacy']);
      }
    });

    it('has every field of the section 2 tables in the matching schema', () => {
      const bySection: Record<string, string> = {
        '2.1': 'RelayReceipt',
        '2.2': 'ConfigRecord',
        '2.3': 'AccountInfo',
        '2.4': 'HistoryEntry',
        '2.5': 'LegacyTransaction',
        '2.6': 'LegacyAppConfig',
      };
      const byLead: [RegExp, string][] = [
        [/^Error entry/, 'LegacyTransactionError'],
        [/^Mint entry/, 'LegacyMint'],
      ];
      const checked = new Set<string>();
      for (const [num, defaultSchema] of Object.entries(bySection)) {
        const fieldTables = tableWith(section(SERVICE_SPEC, `### ${num} `), 'Field');
        expect(fieldTables.length, `section ${num} field tables`).toBeGreaterThan(0);
        for (const table of fieldTables) {
          const schema = byLead.find(([re]) => re.test(table.lead))?.[1] ?? defaultSchema;
          for (const row of table.rows) {
            for (const field of row[0]!.split(',').map((f) => f.trim().replace(/`/g, ''))) {
              expect(propertyAt(schema, field), `${schema}.${field} (service spec ${num})`).toBeDefined();
              checked.add(`${schema}.${field}`);
            }
          }
        }
      }
      // sanity: the parser saw the nested, split and entry tables
      for (const f of [
        'LegacyTransaction.updatedAt',
        'LegacyTransaction.webhookVerifyEnd',
        'LegacyTransactionError.instruction',
        'LegacyAppConfig.environment.cluster.endpoint',
        'LegacyMint.symbol',
      ]) {
        expect(checked.has(f), f).toBe(true);
      }
    });

    it('has every legacy relay body field in LegacyRelayRequest', () => {
      const [table] = tables(section(SERVICE_SPEC, '### 4.3 ')).filter((t) => t.header[0] === 'Field' && /^Legacy relay body/.test(t.lead));
      expect(table?.rows.length).toBeGreaterThanOrEqual(9);
      for (const [field] of table!.rows) {
        expect(propertyAt('LegacyRelayRequest', field!), `LegacyRelayRequest.${field}`).toBeDefined();
      }
    });

    it('has every named 4.1.1 query parameter on getHistory', () => {
      const [table] = tableWith(section(SERVICE_SPEC, '#### 4.1.1 '), 'Parameter');
      const named = table!.rows.map((r) => r[0]!).filter((n) => !n.startsWith('('));
      expect(named).toEqual(['WalletAddress', 'PageNumber', 'PageSize']);
      for (const name of named) expect(historyParam(name).in).toBe('query');
      expect(historyParam('WalletAddress').required).toBe(true);
      expect(historyParam('PageNumber')['x-aliases']).toEqual(['Page']);
      // the unnamed ones got names
      expect(historyParam('MintAddress').in).toBe('query');
      expect(historyParam('Limit').in).toBe('query');
    });

    it('quotes the 2.1 message texts in RelayReceipt', () => {
      const msgTable = tableWith(section(SERVICE_SPEC, '### 2.1 '), 'Operation', 'Message')[0]!;
      for (const [, message] of msgTable.rows) {
        expect(spec.components.schemas.RelayReceipt.description).toContain(message);
      }
    });
  });

  it('has the enums exactly as listed', () => {
    const s = spec.components.schemas;
    expect(s.RelayReceipt.properties.status.enum).toEqual(['Queued']);
    expect(s.LegacyTransactionStatus.enum).toEqual(['Processing', 'Committed', 'Confirmed', 'Finalized', 'Failed']);
    expect(s.LegacyErrorType.enum).toEqual(['BadNonce', 'InvalidAccount', 'SomeError', 'Timeout', 'Unknown', 'WebhookFailed']);
    expect(s.Commitment.enum).toEqual(['Confirmed', 'Finalized', 'Processed']);
    expect(s.ClusterType.enum).toEqual(['Custom', 'SolanaDevnet', 'SolanaMainnet', 'SolanaTestnet']);
    // every problem code is documented with its status
    const codes = s.ProblemCode.enum as string[];
    expect(codes.length).toBe(64);
    expect(Object.keys(s.ProblemCode['x-enum-descriptions']).sort()).toEqual([...codes].sort());
    for (const d of Object.values(s.ProblemCode['x-enum-descriptions']) as string[]) expect(d).toMatch(/^[45]\d\d\b/);
  });

  it('puts security on every operation: API key (or bearer) for current, none for legacy', () => {
    const ops = operations();
    const current = ops.filter((o) => o.op.tags?.includes('current'));
    const legacy = ops.filter((o) => o.op.tags?.includes('legacy'));
    expect(current.length).toBe(10);
    expect(legacy.length).toBe(16);
    for (const { path, method, op } of current) {
      expect(op.security, `${method} ${path}`).toEqual([{ ApiKey: [] }, { BearerToken: [] }]);
    }
    for (const { path, method, op } of legacy) expect(op.security, `${method} ${path}`).toEqual([]);
    for (const { path, method, op } of ops) expect(op.security, `${method} ${path} declares security`).toBeDefined();
  });

  it('serves the emulator routes at the server root, /__emulator ones with the admin-token note', () => {
    const atRoot: string[] = [];
    const controls: string[] = [];
    for (const [path, item] of Object.entries(spec.paths as Json)) {
      const ops = HTTP_METHODS.filter((m) => (item as Json)[m]).map((m) => (item as Json)[m] as Json);
      // A control tagged otherwise would slip past the checks below.
      if (path.startsWith('/__emulator/'))
        expect(
          ops.every((o) => o.tags?.includes('emulator')),
          `${path} is tagged emulator`,
        ).toBe(true);
      if (!ops.some((o) => o.tags?.includes('emulator'))) continue;
      expect((item as Json).servers?.[0]?.url, path).toBe('http://127.0.0.1:8787');
      atRoot.push(path);
      if (path.startsWith('/__emulator/')) {
        expect((item as Json).description, path).toMatch(/X-Admin-Token/);
        controls.push(path);
      }
    }
    // The loop saw the routes it is about (more may come; none may vanish unnoticed).
    expect(atRoot).toEqual(expect.arrayContaining(['/rpc', '/health', '/openapi.yaml', '/docs']));
    expect(controls).toEqual(
      expect.arrayContaining([
        '/__emulator/reset',
        '/__emulator/faucet',
        '/__emulator/mints',
        '/__emulator/accounts/{address}',
        '/__emulator/clock',
        '/__emulator/blockhash/expire',
        '/__emulator/queue',
        '/__emulator/queue/pause',
        '/__emulator/queue/resume',
        '/__emulator/queue/flush',
        '/__emulator/queue/step',
        '/__emulator/faults',
        '/__emulator/journal/requests',
        '/__emulator/journal/transactions',
      ]),
    );
  });

  it('marks every "not shown" choice with x-emulator-choice', () => {
    const pointers = [
      '/components/schemas/BalanceResult',
      '/components/schemas/SendReceipt',
      '/components/schemas/SendBatchReceipt',
      '/components/schemas/ProblemDetails',
      '/components/schemas/ProblemCode',
      '/components/schemas/LegacyError',
      '/components/schemas/LegacyBalance',
      '/components/schemas/LegacyHistory',
      '/components/schemas/LegacyRelayRequest',
      '/components/schemas/LegacyTransaction/properties/ledgerTransaction',
      '/components/schemas/LegacyTransaction/properties/processingDuration',
      '/components/schemas/LegacyTransaction/properties/totalDuration',
      '/components/schemas/LegacyTransaction/properties/webhookEventDuration',
      '/components/schemas/ConfigRecord/properties/RpcEnvironment',
      '/components/schemas/BlockhashRecord',
      '/components/schemas/HistoryEntry/properties/err',
      '/components/schemas/LegacyTransactionStatus',
      '/components/schemas/LegacyErrorType',
      '/components/schemas/Commitment',
      '/components/schemas/ClusterType',
      '/components/securitySchemes/BearerToken',
      '/components/responses/PayloadTooLarge',
      '/components/responses/UnsupportedMediaType',
      '/components/responses/TooManyRequests',
      '/components/requestBodies/SignedTransaction',
      '/paths/~1Transaction~1config/get',
      '/paths/~1Transaction~1blockhash/get',
      '/paths/~1account~1create/post',
      '/paths/~1account~1close/post',
      '/paths/~1rpc/post',
      '/paths/~1Account~1getaccountinfo/post/requestBody',
      '/paths/~1Account~1balance/post/requestBody',
    ];
    const missing = pointers.filter((p) => typeof at(p)?.['x-emulator-choice'] !== 'string');
    expect(missing).toEqual([]);
    for (const name of ['WalletAddress', 'PageNumber', 'PageSize', 'MintAddress', 'Limit']) {
      expect(typeof historyParam(name)['x-emulator-choice'], name).toBe('string');
    }
    expect(at('/components/responses/PayloadTooLarge')['x-emulator-choice']).toMatch(/64 KiB/);
  });

  it('openapi/relay.json, which the emulator reads, is openapi/relay.yaml parsed (npm run generate)', () => {
    const parsed = parseYaml(readFileSync(SPEC_PATH, 'utf8'), { uniqueKeys: false });
    const committed = JSON.parse(readFileSync(join(ROOT, 'openapi/relay.json'), 'utf8'));
    if (!isDeepStrictEqual(committed, parsed)) throw new Error('openapi/relay.json is stale: run npm run generate');
  });

  it('src/generated/relay.ts is up to date with openapi/relay.yaml', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-openapi-'));
    try {
      const out = join(dir, 'relay.ts');
      // Same command as `npm run generate`, into a temp file.
      execFileSync(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), SPEC_PATH, '-o', out], {
        cwd: ROOT,
        stdio: 'pipe',
      });
      const fresh = readFileSync(out, 'utf8');
      const committed = readFileSync(join(ROOT, 'src/generated/relay.ts'), 'utf8');
      if (fresh !== committed) throw new Error('src/generated/relay.ts is stale: run npm run generate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('test/support/openapi.ts', () => {
  // A signature as the contract defines one: base58 of 64 bytes.
  const signature = '2hxGyn4y9Mjkii76BqmxVoNYbTs3tw97bmtZRXnDoZPAw7VZTWhhk1aV11DtFgYGVibPaty4PQLHVLaKrT24NxGU';

  it('accepts a valid RelayReceipt and rejects one without signature', () => {
    const message = 'Account creation transaction queued successfully.';
    const receipt = { status: 'Queued', message, signature, Status: 'Queued', Message: message, Signature: signature };
    expect(() => validateAgainst('RelayReceipt', receipt)).not.toThrow();
    expect(() => validateAgainst('#/components/schemas/RelayReceipt', receipt)).not.toThrow();
    expect(() => assertResponseMatchesSpec({ method: 'post', path: '/Account/create', status: 200, body: receipt })).not.toThrow();
    const { signature: _omit, ...noSig } = receipt;
    expect(() => validateAgainst('RelayReceipt', noSig)).toThrow(/must have required property 'signature'/);
    expect(() => assertResponseMatchesSpec({ method: 'POST', path: '/api/Account/create', status: 200, body: noSig })).toThrow(/createAccount.*signature/s);
  });

  it('picks the error schema by status and content type', () => {
    const problem = {
      type: 'urn:relay-emulator:problem:wrong-fee-payer',
      title: 'Wrong fee payer',
      status: 422,
      code: 'WRONG_FEE_PAYER',
    };
    expect(() =>
      assertResponseMatchesSpec({
        method: 'post',
        path: '/Transaction/send',
        status: 422,
        body: problem,
        contentType: 'application/problem+json; charset=utf-8',
      }),
    ).not.toThrow();
    expect(() => assertResponseMatchesSpec({ method: 'post', path: '/Transaction/send', status: 422, body: { ...problem, code: 'NOPE' } })).toThrow(
      /code must be equal to one of the allowed values/,
    );
    expect(schemaErrors('ProblemDetails', { ...problem, code: 'NOPE' })).not.toBeNull();
    expect(() => assertResponseMatchesSpec({ method: 'post', path: '/Transaction/send', status: 422, body: problem, contentType: 'text/plain' })).toThrow(
      /content type text\/plain is not declared/,
    );
    expect(() => assertResponseMatchesSpec({ method: 'post', path: '/Transaction/send', status: 418, body: problem })).toThrow(/status 418 is not declared/);
  });

  it('matches concrete legacy paths against templates', () => {
    const body = { statusCode: 404, message: 'App not found', error: 'Not Found' };
    expect(() => assertResponseMatchesSpec({ method: 'get', path: '/api/app/devnet/1/config', status: 404, body })).not.toThrow();
  });
});
