import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { FAKE_API_KEY, FAKE_BASE_URL, FAKE_FEE_PAYER, fakeConfig, fakeFetch, json, problem, withApiKey, type Handler } from '../fake-target.test-support.ts';
import { runConformance } from '../run-conformance.ts';

const accountInfo = () => json({ accountInfo: { address: FAKE_FEE_PAYER, owner: '11111111111111111111111111111111', lamports: 5, executable: false } });
const balance = () => json({ accountAddress: FAKE_FEE_PAYER, sol: { amount: '5', decimals: 9, uiAmountString: '0.000000005' }, tokens: [] });
const history = () => json({ transactions: [] });
const blockhash = () => json({ Blockhash: bs58.encode(Buffer.alloc(32, 1)), LastValidBlockHeight: 150 });
const receipt = () => json({ status: 'Queued', message: 'Transaction sent successfully', signature: '5'.repeat(88) });

function target(guard: (h: Handler) => Handler, send: Handler) {
  return fakeFetch({
    'GET /api/Transaction/config': guard(() => json(fakeConfig())),
    'GET /api/Transaction/blockhash': guard(blockhash),
    'POST /api/Account/getaccountinfo': guard(accountInfo),
    'POST /api/Account/balance': guard(balance),
    'POST /api/Account/gethistory': guard(history),
    'POST /api/Transaction/send': guard(send),
    'POST /api/Account/create': guard(send),
  });
}

async function run(fetch: (r: Request) => Promise<Response>, only: string[]) {
  const report = await runConformance({ baseUrl: FAKE_BASE_URL, apiKey: FAKE_API_KEY, fetch, only });
  return Object.fromEntries(report.results.map((r) => [r.id, r]));
}

/** Refuses like the emulator: base64 first, then the fee payer, then the owner's signature. */
const strictSend: Handler = async (request) => {
  const { signedTransaction } = (await request.json()) as { signedTransaction: string };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(signedTransaction)) return problem(400, 'INVALID_BASE64');
  const bytes = Buffer.from(signedTransaction, 'base64');
  // Legacy wire format: [count][signatures][header(3)][account count][keys…]; the fee payer is key 0.
  const count = bytes[0]!;
  const keysAt = 1 + 64 * count + 4;
  const feePayer = bs58.encode(bytes.subarray(keysAt, keysAt + 32));
  if (feePayer !== FAKE_FEE_PAYER) return problem(422, 'WRONG_FEE_PAYER');
  const signatures = Array.from({ length: count }, (_, i) => bytes.subarray(1 + 64 * i, 65 + 64 * i));
  if (signatures.slice(1).some((s) => s.every((b) => b === 0))) return problem(422, 'SIGNATURE_MISSING');
  return receipt();
};

describe('auth checks', () => {
  it('pass against a target that refuses a missing or unknown key with 401 problems', async () => {
    const results = await run(target(withApiKey, strictSend), ['auth.missing-key', 'auth.missing-key.problem', 'auth.invalid-key', 'auth.invalid-key.problem']);
    expect(results['auth.missing-key']).toMatchObject({ status: 'pass', reason: expect.stringMatching(/getaccountinfo → 401/) });
    expect(results['auth.missing-key.problem']?.status).toBe('pass');
    expect(results['auth.invalid-key']?.status).toBe('pass');
    expect(results['auth.invalid-key.problem']?.status).toBe('pass');
  });

  it('fail against a target that accepts any key', async () => {
    const results = await run(
      target((h) => h, strictSend),
      ['auth.missing-key', 'auth.invalid-key', 'auth.config-requires-key'],
    );
    expect(results['auth.missing-key']).toMatchObject({ status: 'fail', level: 'MUST' });
    expect(results['auth.missing-key']?.reason).toMatch(/^not refused without X-API-Key: POST \/Account\/getaccountinfo → 200/);
    expect(results['auth.invalid-key']).toMatchObject({ status: 'fail', level: 'MUST' });
    expect(results['auth.config-requires-key']).toMatchObject({ status: 'fail', level: 'SHOULD' });
  });

  it('tell a refusal with the wrong status or code from a right one', async () => {
    const forbidding: (h: Handler) => Handler = (h) => (req, url) => (req.headers.get('x-api-key') === FAKE_API_KEY ? h(req, url) : problem(403, 'IP_BLOCKED'));
    const results = await run(target(forbidding, strictSend), ['auth.missing-key', 'auth.missing-key.problem']);
    expect(results['auth.missing-key']?.status).toBe('pass');
    expect(results['auth.missing-key.problem']?.reason).toMatch(/expected 401 application\/problem\+json API_KEY_MISSING: .*→ 403 IP_BLOCKED/);
  });

  it('skip rather than judge when the reads fail even with the key', async () => {
    const broken = fakeFetch({ 'GET /api/Transaction/config': () => json(fakeConfig()) });
    const results = await run(broken, ['auth.missing-key']);
    expect(results['auth.missing-key']).toMatchObject({ status: 'skip', reason: expect.stringMatching(/no read answered 2xx with the key/) });
  });
});

describe('rejection checks', () => {
  it('pass against a relay that refuses bad base64, a wrong fee payer and a missing signature', async () => {
    const results = await run(target(withApiKey, strictSend), ['reject.']);
    for (const id of ['reject.bad-base64', 'reject.wrong-fee-payer', 'reject.missing-signature']) {
      expect(results[id], id).toMatchObject({ status: 'pass', level: 'MUST' });
      expect(results[`${id}.problem`], id).toMatchObject({ status: 'pass', level: 'SHOULD' });
    }
  });

  it('fail against a relay that queues whatever it is given', async () => {
    const results = await run(target(withApiKey, receipt), ['reject.']);
    for (const id of ['reject.bad-base64', 'reject.wrong-fee-payer', 'reject.missing-signature']) {
      expect(results[id], id).toMatchObject({ status: 'fail', reason: expect.stringMatching(/^not refused with a 4xx: POST \/Transaction\/send → 200/) });
    }
  });
});
