import { describe, expect, it } from 'vitest';
import { FAKE_API_KEY, FAKE_BASE_URL, fakeConfig, fakeFetch, fakeJwt, json, withApiKey } from '../fake-target.test-support.ts';
import { runConformance } from '../run-conformance.ts';

async function configResults(config: Record<string, unknown>) {
  const report = await runConformance({
    baseUrl: FAKE_BASE_URL,
    apiKey: FAKE_API_KEY,
    fetch: fakeFetch({ 'GET /api/Transaction/config': withApiKey(() => json(config)) }),
    only: ['config.', 'contract.getConfig'],
  });
  return Object.fromEntries(report.results.map((r) => [r.id, r]));
}

describe('config checks', () => {
  it('pass for a correct configuration record', async () => {
    const results = await configResults(fakeConfig());
    expect(results['config.fields']?.status).toBe('pass');
    expect(results['config.token-expiration']?.status).toBe('pass');
    expect(results['contract.getConfig']?.status).toBe('pass');
  });

  it('name a field whose capitalisation differs', async () => {
    const { RpcUrl, ...rest } = fakeConfig();
    const results = await configResults({ ...rest, rpcUrl: RpcUrl });
    expect(results['config.fields']).toMatchObject({ status: 'fail', level: 'MUST', section: '2.2' });
    expect(results['config.fields']?.reason).toBe('RpcUrl is missing (found rpcUrl: field names are capitalised exactly)');
    expect(results['contract.getConfig']?.reason).toMatch(/must have required property 'RpcUrl'/);
  });

  it('refuse a FeePayer that is not a public key and a TokenExpiration that is not ISO 8601', async () => {
    const results = await configResults(fakeConfig({ FeePayer: 'fee-payer', TokenExpiration: 'tomorrow' }));
    expect(results['config.fields']?.reason).toMatch(/FeePayer is not a base58 public key: "fee-payer".*TokenExpiration is not an ISO 8601 timestamp/);
  });

  it('compare the JWT exp with TokenExpiration', async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const results = await configResults(fakeConfig({ Token: fakeJwt({ exp: exp + 60 }), TokenExpiration: new Date(exp * 1000).toISOString() }));
    expect(results['config.token-expiration']).toMatchObject({ status: 'fail' });
    expect(results['config.token-expiration']?.reason).toMatch(/differs from the JWT exp/);

    const opaque = await configResults(fakeConfig({ Token: 'opaque-token' }));
    expect(opaque['config.token-expiration']?.reason).toMatch(/Token is not a JWT/);

    const expired = await configResults(fakeConfig({ Token: fakeJwt({ exp: 1_000_000_000 }), TokenExpiration: new Date(1_000_000_000_000).toISOString() }));
    expect(expired['config.token-expiration']?.reason).toMatch(/already expired/);
  });

  it('fail every config check when the read is refused, saying how', async () => {
    const report = await runConformance({
      baseUrl: FAKE_BASE_URL,
      apiKey: 'wrong',
      fetch: fakeFetch({ 'GET /api/Transaction/config': withApiKey(() => json(fakeConfig())) }),
      only: ['config.'],
    });
    for (const r of report.results) expect(r.reason).toMatch(/refused: GET \/Transaction\/config → 401 API_KEY_INVALID/);
    expect(report.summary).toMatchObject({ mustFailed: 2, ok: false });
  });
});
