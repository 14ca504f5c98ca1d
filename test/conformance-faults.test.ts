// Over 250 lines: broken implementations of both interfaces, each proxied to one emulator (whose start-up is the cost of a file), and the kit run against each.
/**
 * The kit is checked too: it runs against deliberately broken implementations (the emulator's
 * fetch behind a proxy that breaks one thing) and must report exactly the checks that clause
 * belongs to, and nothing else. One emulator for the file; each run of the kit is net-zero for
 * the owner, so the runs do not disturb each other.
 */
import { readFileSync } from 'node:fs';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable, runConformance, type ConformanceReport } from '../src/conformance/index.ts';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';

const wallets = JSON.parse(readFileSync(new URL('../fixtures/wallets.json', import.meta.url), 'utf8')) as { name: string; secretKey: string }[];
const mints = JSON.parse(readFileSync(new URL('../fixtures/mints.json', import.meta.url), 'utf8')) as { symbol: string; address: string }[];
const alice = Keypair.fromSecretKey(bs58.decode(wallets.find((w) => w.name === 'alice')!.secretKey));
const usdc = mints.find((m) => m.symbol === 'USDC')!.address;

let emulator: RelayEmulator;
beforeAll(async () => {
  emulator = await createRelayEmulator();
});
afterAll(async () => {
  await emulator?.close();
});

type Fetch = (request: Request) => Promise<Response>;

/** The emulator behind a proxy: `request` may rewrite what reaches it, `response` what comes back. */
function broken(options: { request?: (req: Request) => Request; response?: (req: Request, res: Response) => Promise<Response> | Response }): Fetch {
  return async (original) => {
    const request = options.request ? options.request(original) : original;
    const response = await emulator.fetch(request);
    return options.response ? options.response(request, response) : response;
  };
}

function path(request: Request): string {
  return new URL(request.url).pathname;
}

async function jsonBody(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

function withStatus(res: Response, status: number): Response {
  return new Response(res.body, { status, headers: res.headers });
}

async function check(fetch: Fetch, timeoutMs = 10_000): Promise<ConformanceReport> {
  return runConformance({ baseUrl: emulator.config.baseUrl, apiKey: emulator.config.apiKey, fetch, ownerKeypair: alice, mint: usdc, timeoutMs });
}

function failing(report: ConformanceReport): string[] {
  return report.results.filter((r) => r.status === 'fail').map((r) => `${r.level} ${r.id}`);
}

function result(report: ConformanceReport, id: string) {
  return report.results.find((r) => r.id === id);
}

const RELAY_PATHS = /\/(Account\/(create|close)|Transaction\/(send|sendbatch))$/;

describe('the kit catches each fault of a broken implementation', () => {
  it('(a) a renamed field of the configuration record', async () => {
    const report = await check(
      broken({
        async response(req, res) {
          if (!path(req).endsWith('/Transaction/config') || res.status !== 200) return res;
          const { RpcEnvironment, ...rest } = await jsonBody(res);
          return Response.json({ ...rest, rpcEnvironment: RpcEnvironment });
        },
      }),
    );
    expect(failing(report), formatTable(report)).toEqual(['MUST config.fields', 'SHOULD contract.getConfig']);
    expect(result(report, 'config.fields')?.reason).toBe('RpcEnvironment is missing (found rpcEnvironment: field names are capitalised exactly)');
    expect(result(report, 'contract.getConfig')?.reason).toMatch(/must have required property 'RpcEnvironment'/);
    expect(report.summary).toMatchObject({ verdict: 'not-conformant', ok: false });
  });

  it('(b) a wrong status: 200 instead of 401 for a missing or bad key', async () => {
    const report = await check(broken({ response: (_req, res) => (res.status === 401 ? withStatus(res, 200) : res) }));
    expect(failing(report), formatTable(report)).toEqual([
      'MUST auth.missing-key',
      'SHOULD auth.missing-key.problem',
      'MUST auth.invalid-key',
      'SHOULD auth.invalid-key.problem',
      'SHOULD auth.config-requires-key',
      'SHOULD auth.forged-token',
      'SHOULD contract.getConfig',
      'SHOULD contract.getAccountInfo',
      'SHOULD contract.getHistory',
      'SHOULD contract.getBalance',
    ]);
    expect(result(report, 'auth.invalid-key')?.reason).toMatch(/^not refused with an unknown X-API-Key: POST \/Account\/getaccountinfo → 200 API_KEY_INVALID/);
    expect(result(report, 'contract.getAccountInfo')?.reason).toMatch(/200: content type application\/problem\+json is not declared/);
  });

  it('(b) a wrong status: 201 instead of 200 for a receipt', async () => {
    const report = await check(broken({ response: (req, res) => (path(req).endsWith('/Account/create') && res.status === 200 ? withStatus(res, 201) : res) }));
    expect(failing(report), formatTable(report)).toEqual(['SHOULD contract.createAccount']);
    expect(result(report, 'contract.createAccount')?.reason).toMatch(
      /POST \/Account\/create → 201 \(during forms\.receipt-pascal-case\): .*status 201 is not declared \(declared: 200, /,
    );
    // The spec shows no status codes: a 2xx receipt is still a receipt, so this is a SHOULD failure
    // only, and the run (of the current interface: no legacy app given) is still conformant.
    expect(report.summary).toMatchObject({ verdict: 'conformant', mustFailed: 0, shouldFailed: 1 });
  });

  it('(c) a missing auth check: any key, or none, is accepted', async () => {
    const report = await check(
      broken({
        request(req) {
          if (req.headers.get('x-api-key') === emulator.config.apiKey) return req;
          const headers = new Headers(req.headers);
          headers.set('X-API-Key', emulator.config.apiKey);
          headers.delete('Authorization');
          return new Request(req, { headers });
        },
      }),
    );
    expect(failing(report), formatTable(report)).toEqual([
      'MUST auth.missing-key',
      'SHOULD auth.missing-key.problem',
      'MUST auth.invalid-key',
      'SHOULD auth.invalid-key.problem',
      'SHOULD auth.config-requires-key',
      'SHOULD auth.forged-token',
    ]);
    expect(result(report, 'auth.missing-key')?.reason).toMatch(/^not refused without X-API-Key: POST \/Account\/getaccountinfo → 200 \{"accountInfo"/);
  });

  it('(d) a receipt without a signature', async () => {
    const report = await check(
      broken({
        async response(req, res) {
          if (!RELAY_PATHS.test(path(req)) || res.status !== 200) return res;
          const { signature: _dropped, ...rest } = await jsonBody(res);
          return Response.json(rest);
        },
      }),
    );
    expect(failing(report), formatTable(report)).toEqual([
      'SHOULD forms.receipt-pascal-case',
      'MUST relay.create.receipt',
      'SHOULD relay.send.receipt',
      'MUST relay.sendbatch.receipt',
      'SHOULD relay.sendbatch.fields',
      'MUST relay.close.receipt',
      'SHOULD contract.createAccount',
      'SHOULD contract.closeAccount',
      'SHOULD contract.sendTransaction',
      'SHOULD contract.sendBatch',
    ]);
    expect(result(report, 'relay.create.receipt')?.reason).toBe('signature is missing');
    // The transactions still landed; only the receipts are wrong.
    for (const id of ['relay.create.lands', 'relay.send.lands', 'relay.sendbatch.lands', 'relay.close.lands']) {
      expect(result(report, id)?.status, id).toBe('pass');
    }
    expect(result(report, 'relay.signature.fee-payer')).toMatchObject({ status: 'skip', reason: 'no receipt carried a signature' });
  });

  it('a receipt signature that is not the fee payer’s', async () => {
    const report = await check(
      broken({
        async response(req, res) {
          if (!path(req).endsWith('/Account/create') || res.status !== 200) return res;
          return Response.json({ ...(await jsonBody(res)), signature: bs58.encode(Buffer.alloc(64, 9)) });
        },
      }),
      // The history check waits for that signature until the timeout: keep it short.
      1_500,
    );
    // The PascalCase Signature still carries the real one: the clients reading it would not notice.
    expect(failing(report), formatTable(report)).toEqual([
      'SHOULD forms.receipt-pascal-case',
      'MUST relay.signature.fee-payer',
      'MUST relay.signature.history',
    ]);
    expect(result(report, 'relay.signature.fee-payer')?.reason).toMatch(/^the create receipt's signature \w+ is not FeePayer's signature of that transaction$/);
  });

  it('a relay built to the spec alone, deaf to the vendor clients’ forms: every forms.* check fails, and no MUST check', async () => {
    const CANONICAL = /\/api\/(Transaction\/(config|blockhash|send|sendbatch)|Account\/(create|close|getaccountinfo|balance|gethistory))$/;
    const PASCAL = ['Status', 'Message', 'Signature', 'AccountAddress', 'AccountInfo', 'TokenInfos', 'Balance', 'Symbol'];
    const problem = (status: number, code: string) =>
      Response.json(
        { type: `urn:relay-emulator:problem:${code.toLowerCase().replaceAll('_', '-')}`, title: code, status, code },
        { status, headers: { 'Content-Type': 'application/problem+json' } },
      );
    const report = await check(async (request) => {
      const url = new URL(request.url);
      if (url.pathname.startsWith('/api/') && !CANONICAL.test(url.pathname)) return problem(404, 'ROUTE_NOT_FOUND');
      if (url.pathname.endsWith('/Transaction/blockhash') && request.method === 'POST') return problem(405, 'METHOD_NOT_ALLOWED');
      if (url.searchParams.get('Page') === '0') return problem(400, 'INVALID_QUERY');
      if (request.method === 'POST' && request.headers.get('content-type')?.includes('json')) {
        const text = await request.clone().text();
        const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        if (['transaction', 'address', 'mint', 'SignedTransaction'].some((key) => key in body) || body.mintAddress === '')
          return problem(400, 'VALIDATION_FAILED');
      }
      const response = await emulator.fetch(request);
      if (!url.pathname.startsWith('/api/') || !response.ok) return response;
      const body = (await response.json()) as Record<string, unknown>;
      const accountInfo = body.accountInfo as { lamports?: number } | undefined;
      if (url.pathname.endsWith('/getaccountinfo') && accountInfo?.lamports === 0) return problem(404, 'ACCOUNT_NOT_FOUND');
      return Response.json(Object.fromEntries(Object.entries(body).filter(([key]) => !PASCAL.includes(key))));
    });
    const forms = report.results.filter((r) => r.id.startsWith('forms.'));
    expect(forms.length).toBe(10);
    expect(
      forms.filter((r) => r.status !== 'fail').map((r) => `${r.id}: ${r.status} ${r.reason}`),
      formatTable(report),
    ).toEqual([]);
    expect(report.summary.mustFailed, formatTable(report)).toBe(0);
  });
});

describe('the kit catches where Kin’s Kinetic SDK would break (legacy.kinetic.*)', () => {
  const legacyError = (statusCode: number, message: string, error: string) => Response.json({ statusCode, message, error }, { status: statusCode });
  const legacyCheck = (fetch: Fetch) =>
    runConformance({
      baseUrl: emulator.config.baseUrl,
      apiKey: emulator.config.apiKey,
      fetch,
      legacy: { environment: 'devnet', index: 1 },
      only: ['legacy.'],
      timeoutMs: 10_000,
    });

  it('a server that refuses null reference fields, as the emulator did before', async () => {
    const report = await legacyCheck(async (req) => {
      if (path(req).endsWith('/transaction/make-transfer')) {
        const body = (await req.clone().json()) as Record<string, unknown>;
        const nulled = ['reference', 'referenceId', 'referenceType'].find((name) => name in body && body[name] === null);
        if (nulled) return legacyError(400, `${nulled} must be string`, 'Bad Request');
      }
      return emulator.fetch(req);
    });
    expect(failing(report), formatTable(report)).toEqual(['SHOULD legacy.kinetic.null-reference', 'SHOULD legacy.kinetic.null-reference-pair']);
    expect(result(report, 'legacy.kinetic.null-reference')?.reason).toMatch(
      /^not accepted: POST \/transaction\/make-transfer → 400 .*reference must be string/,
    );
    expect(result(report, 'legacy.kinetic.listing-empty-values')).toMatchObject({
      status: 'skip',
      reason: expect.stringMatching(/^needs a make-transfer with reference null/),
    });
    expect(report.summary).toMatchObject({ ok: true, mustFailed: 0 });
  });

  it('a server that answers a submission failure with an error status instead of a Failed record', async () => {
    const report = await legacyCheck(async (req) => {
      const res = await emulator.fetch(req);
      if (!path(req).endsWith('/transaction/make-transfer') || res.status !== 201) return res;
      const record = await jsonBody(res.clone());
      return record.status === 'Failed' ? legacyError(400, 'Blockhash not found', 'Bad Request') : res;
    });
    expect(failing(report), formatTable(report)).toEqual(['SHOULD legacy.kinetic.failed-record']);
    expect(result(report, 'legacy.kinetic.failed-record')?.reason).toMatch(/→ 400 .*Kinetic SDKs read any non-2xx answer as an error/);
  });

  it('a Failed record typed otherwise than BadNonce, and reads or listings that mind Kinetic’s query forms', async () => {
    const report = await legacyCheck(async (req) => {
      const url = new URL(req.url);
      if (url.searchParams.get('commitment') !== null) return legacyError(400, 'commitment should not exist', 'Bad Request');
      if (url.pathname.includes('/legacy-transaction/') && url.searchParams.get('reference') === '')
        return legacyError(404, 'app-1-devnet: Transaction not found', 'Not Found');
      const res = await emulator.fetch(req);
      if (!url.pathname.endsWith('/transaction/make-transfer') || res.status !== 201) return res;
      const record = await jsonBody(res.clone());
      return record.status === 'Failed' ? Response.json({ ...record, errors: [{ ...(record.errors as object[])[0], type: 'Unknown' }] }, { status: 201 }) : res;
    });
    expect(failing(report), formatTable(report)).toEqual([
      'SHOULD legacy.kinetic.listing-empty-values',
      'SHOULD legacy.kinetic.read-commitment',
      'SHOULD legacy.kinetic.failed-record',
    ]);
    expect(result(report, 'legacy.kinetic.failed-record')?.reason).toBe('errors[0].type "Unknown", not "BadNonce"');
    expect(result(report, 'legacy.kinetic.read-commitment')?.reason).toMatch(/→ 400 .*commitment should not exist/);
  });
});
