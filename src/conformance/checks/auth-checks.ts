import type { ConformanceCheck } from '../check.ts';
import { ensure, skip } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { describeResponse, problemCode } from '../describe-response.ts';
import type { Auth, TargetRequest, TargetResponse } from '../target-client.ts';

type Check = ConformanceCheck<ConformanceContext>;

/** An API key no service has issued. */
const INVALID_API_KEY = 'relay-conformance-invalid-key-0000';

/**
 * Reads that succeed with the key, so a refusal without it can only be the authentication.
 * The config read is not among them: whether it needs the key is not shown (spec 5.3).
 */
function probes(feePayer: string): Omit<TargetRequest, 'auth'>[] {
  return [
    { method: 'POST', path: '/Account/getaccountinfo', json: { accountAddress: feePayer } },
    { method: 'POST', path: '/Account/balance', json: { accountAddress: feePayer } },
    { method: 'POST', path: '/Account/gethistory', query: { WalletAddress: feePayer, PageSize: 1 } },
  ];
}

interface ProbeOutcome {
  label: string;
  withKey: TargetResponse;
  other: TargetResponse;
}

/** Each probe with the key, then with `auth`; memoised per auth kind. */
function probeWith(ctx: ConformanceContext, kind: 'missing' | 'invalid'): Promise<ProbeOutcome[]> {
  return ctx.step(`auth-probes-${kind}`, async () => {
    const feePayer = (await ctx.need(ctx.feePayer(), 'the FeePayer of the configuration record')).toBase58();
    const auth: Auth = kind === 'missing' ? 'none' : { apiKey: INVALID_API_KEY };
    const outcomes: ProbeOutcome[] = [];
    for (const probe of probes(feePayer)) {
      const withKey = await ctx.client.request({ ...probe, auth: 'api-key' });
      const other = await ctx.client.request({ ...probe, auth });
      outcomes.push({ label: `${probe.method} ${probe.path}`, withKey, other });
    }
    return outcomes;
  });
}

function judged(outcomes: ProbeOutcome[]): ProbeOutcome[] {
  const usable = outcomes.filter((o) => o.withKey.ok);
  if (usable.length === 0) {
    skip(`no read answered 2xx with the key, so a refusal cannot be told apart: ${outcomes.map((o) => describeResponse(o.withKey)).join('; ')}`);
  }
  return usable;
}

function refusedCheck(kind: 'missing' | 'invalid'): Check {
  const what = kind === 'missing' ? 'without X-API-Key' : 'with an unknown X-API-Key';
  return {
    id: `auth.${kind}-key`,
    section: '5.1',
    level: 'MUST',
    title: `Current endpoints refuse requests ${what}`,
    async run(ctx) {
      const usable = judged(await probeWith(ctx, kind));
      const accepted = usable.filter((o) => !(o.other.status >= 400 && o.other.status < 500));
      ensure(accepted.length === 0, `not refused ${what}: ${accepted.map((o) => describeResponse(o.other)).join('; ')}`);
      return usable.map((o) => `${o.label} → ${o.other.status}`).join(', ');
    },
  };
}

function problemCheck(kind: 'missing' | 'invalid'): Check {
  const code = kind === 'missing' ? 'API_KEY_MISSING' : 'API_KEY_INVALID';
  return {
    id: `auth.${kind}-key.problem`,
    section: '7.2',
    level: 'SHOULD',
    choice: '#/components/schemas/ProblemCode',
    title: `A request ${kind === 'missing' ? 'without a key' : 'with an unknown key'} is answered 401 problem+json with code ${code}`,
    async run(ctx) {
      const usable = judged(await probeWith(ctx, kind));
      const wrong = usable.filter((o) => o.other.status !== 401 || problemCode(o.other) !== code || !isProblemJson(o.other));
      ensure(
        wrong.length === 0,
        `expected 401 application/problem+json ${code}: ` +
          `${wrong.map((o) => `${describeResponse(o.other)} (${o.other.contentType ?? 'no content type'})`).join('; ')}`,
      );
    },
  };
}

export function isProblemJson(res: TargetResponse): boolean {
  return /^application\/problem\+json\b/i.test(res.contentType ?? '');
}

function tamper(token: string): string {
  const [header, payload, signature = ''] = token.split('.');
  const first = signature[0] === 'A' ? 'B' : 'A';
  return `${header}.${payload}.${first}${signature.slice(1)}`;
}

export const authChecks: Check[] = [
  refusedCheck('missing'),
  problemCheck('missing'),
  refusedCheck('invalid'),
  problemCheck('invalid'),
  {
    id: 'auth.config-requires-key',
    section: '5.3',
    level: 'SHOULD',
    choice: '#/paths/~1Transaction~1config/get',
    title: 'GET /Transaction/config without X-API-Key is answered 401',
    async run(ctx) {
      await ctx.need(ctx.config(), 'the configuration record');
      const res = await ctx.client.request({ method: 'GET', path: '/Transaction/config', auth: 'none' });
      ensure(res.status === 401, `expected 401: ${describeResponse(res)}`);
    },
  },
  {
    id: 'auth.bearer-token',
    section: '5.2',
    level: 'SHOULD',
    choice: '#/components/securitySchemes/BearerToken',
    title: 'The config Token, sent as Authorization: Bearer, authenticates a current endpoint in place of the key',
    async run(ctx) {
      const feePayer = (await ctx.need(ctx.feePayer(), 'the FeePayer of the configuration record')).toBase58();
      const token = await ctx.token();
      if (!token) skip('the configuration record has no Token');
      const res = await ctx.client.request({ method: 'POST', path: '/Account/getaccountinfo', json: { accountAddress: feePayer }, auth: { bearer: token } });
      ensure(res.ok, `not accepted: ${describeResponse(res)}`);
    },
  },
  {
    id: 'auth.forged-token',
    section: '5.2',
    level: 'SHOULD',
    choice: '#/components/securitySchemes/BearerToken',
    title: 'A bearer Token with a forged signature is answered 401',
    async run(ctx) {
      const feePayer = (await ctx.need(ctx.feePayer(), 'the FeePayer of the configuration record')).toBase58();
      const token = await ctx.token();
      if (token?.split('.').length !== 3) skip('the configuration record has no JWT Token to forge');
      const res = await ctx.client.request({
        method: 'POST',
        path: '/Account/getaccountinfo',
        json: { accountAddress: feePayer },
        auth: { bearer: tamper(token) },
      });
      ensure(res.status === 401, `expected 401: ${describeResponse(res)}`);
      return problemCode(res);
    },
  },
];
