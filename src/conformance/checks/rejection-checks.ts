import { Keypair, type PublicKey } from '@solana/web3.js';
import type { ConformanceCheck } from '../check.ts';
import { ensure } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { describeResponse, problemCode } from '../describe-response.ts';
import type { TargetResponse } from '../target-client.ts';
import { associatedTokenAddress, buildTransaction, transferInstruction } from '../transactions.ts';
import { isProblemJson } from './auth-checks.ts';

type Check = ConformanceCheck<ConformanceContext>;

/** Not base64: '*' and '!' are outside the alphabet. */
const NOT_BASE64 = '***not base64!***';

/**
 * A transfer that is right in every way but one. The owner and mint are the scenarios' when there
 * are some (so nothing but the defect can be wrong), else fresh keys: a relay must refuse either way.
 */
async function transferParts(ctx: ConformanceContext): Promise<{ owner: Keypair; account: PublicKey }> {
  const funding = await ctx.funding().catch(() => undefined);
  if (funding) return { owner: funding.owner, account: funding.ownerAccount };
  const owner = Keypair.generate();
  return { owner, account: associatedTokenAddress(owner.publicKey, Keypair.generate().publicKey) };
}

function badBase64(ctx: ConformanceContext): Promise<TargetResponse[]> {
  return ctx.step('reject-bad-base64', async () => [
    await ctx.client.request({ method: 'POST', path: '/Transaction/send', json: { signedTransaction: NOT_BASE64 } }),
    await ctx.client.request({ method: 'POST', path: '/Account/create', json: { signedTransaction: NOT_BASE64 } }),
  ]);
}

function wrongFeePayer(ctx: ConformanceContext): Promise<TargetResponse[]> {
  return ctx.step('reject-wrong-fee-payer', async () => {
    await ctx.need(ctx.feePayer(), 'the FeePayer of the configuration record');
    const recent = await ctx.need(ctx.recentBlockhash(), 'a recent blockhash');
    const { owner, account } = await transferParts(ctx);
    const stranger = Keypair.generate();
    const ix = transferInstruction({ source: account, destination: account, authority: owner, amount: 1n });
    const built = buildTransaction(stranger.publicKey, recent, [ix], [stranger, owner]);
    return [await ctx.client.request({ method: 'POST', path: '/Transaction/send', json: { signedTransaction: built.base64 } })];
  });
}

function missingSignature(ctx: ConformanceContext): Promise<TargetResponse[]> {
  return ctx.step('reject-missing-signature', async () => {
    const feePayer = await ctx.need(ctx.feePayer(), 'the FeePayer of the configuration record');
    const recent = await ctx.need(ctx.recentBlockhash(), 'a recent blockhash');
    const { owner, account } = await transferParts(ctx);
    const ix = transferInstruction({ source: account, destination: account, authority: owner, amount: 1n });
    const built = buildTransaction(feePayer, recent, [ix], []);
    return [await ctx.client.request({ method: 'POST', path: '/Transaction/send', json: { signedTransaction: built.base64 } })];
  });
}

function refused(id: string, section: string, title: string, responses: (ctx: ConformanceContext) => Promise<TargetResponse[]>): Check {
  return {
    id,
    section,
    level: 'MUST',
    title,
    async run(ctx) {
      const answers = await responses(ctx);
      const notRefused = answers.filter((r) => !(r.status >= 400 && r.status < 500));
      ensure(notRefused.length === 0, `not refused with a 4xx: ${notRefused.map(describeResponse).join('; ')}`);
      return answers.map(describeResponse).join('; ');
    },
  };
}

function coded(id: string, status: number, code: string, title: string, responses: (ctx: ConformanceContext) => Promise<TargetResponse[]>): Check {
  return {
    id,
    section: '7.2',
    level: 'SHOULD',
    choice: '#/components/schemas/ProblemCode',
    title,
    async run(ctx) {
      const answers = await responses(ctx);
      const wrong = answers.filter((r) => r.status !== status || problemCode(r) !== code || !isProblemJson(r));
      ensure(wrong.length === 0, `expected ${status} application/problem+json ${code}: ${wrong.map(describeResponse).join('; ')}`);
    },
  };
}

export const rejectionChecks: Check[] = [
  refused('reject.bad-base64', '4.1', 'A signedTransaction that is not base64 is refused (send and create)', badBase64),
  coded('reject.bad-base64.problem', 400, 'INVALID_BASE64', 'Not-base64 is answered 400 INVALID_BASE64', badBase64),
  refused('reject.wrong-fee-payer', '4.2', 'A transaction whose fee payer is not FeePayer is refused', wrongFeePayer),
  coded('reject.wrong-fee-payer.problem', 422, 'WRONG_FEE_PAYER', 'A wrong fee payer is answered 422 WRONG_FEE_PAYER', wrongFeePayer),
  refused('reject.missing-signature', '4.2', "A transaction missing the client's signature is refused", missingSignature),
  coded('reject.missing-signature.problem', 422, 'SIGNATURE_MISSING', 'A missing client signature is answered 422 SIGNATURE_MISSING', missingSignature),
];
