import type { ConformanceCheck } from '../check.ts';
import { ensure, fail, show, skip } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { describeResponse } from '../describe-response.ts';
import type { TargetResponse } from '../target-client.ts';
import { isSignatureOf } from '../transactions.ts';
import { closeCall, closeLanded, createCall, createLanded, sendBatchCall, sendBatchLanded, sendCall, sendLanded, type RelayCall } from './relay-scenario.ts';

type Check = ConformanceCheck<ConformanceContext>;

/** Message texts of spec 2.1. */
export const RECEIPT_MESSAGES = {
  create: 'Account creation transaction queued successfully.',
  close: 'Account close transaction queued successfully.',
  sendbatch: 'Transaction sent successfully',
} as const;

/** Problems of a relay receipt (spec 2.1): 2xx, status Queued, the message text, a signature. Empty when it is right. */
function receiptProblems(res: TargetResponse, message: string): string[] {
  if (!res.ok) return [`not accepted: ${describeResponse(res)}`];
  const body = res.json as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [`the receipt is not a JSON object: ${describeResponse(res)}`];
  const problems: string[] = [];
  if (body.status !== 'Queued') problems.push(`status is ${show(body.status)}, not "Queued"`);
  if (body.message !== message) problems.push(`message is ${show(body.message)}, not ${show(message)}`);
  if (!('signature' in body)) problems.push('signature is missing');
  else if (typeof body.signature !== 'string' || body.signature === '') problems.push(`signature is not a non-empty string: ${show(body.signature)}`);
  return problems;
}

function signatureOf(call: RelayCall): string | undefined {
  const signature = (call.response.json as { signature?: unknown } | undefined)?.signature;
  return call.response.ok && typeof signature === 'string' && signature !== '' ? signature : undefined;
}

const landedNote = ({ elapsedMs }: { elapsedMs: number }) => `visible after ${Math.round(elapsedMs)} ms`;

function receiptCheck(id: string, title: string, message: string, call: (ctx: ConformanceContext) => Promise<RelayCall>): Check {
  return {
    id,
    section: '2.1',
    level: 'MUST',
    title,
    async run(ctx) {
      const { response } = await call(ctx);
      const problems = receiptProblems(response, message);
      ensure(problems.length === 0, problems.join('; '));
    },
  };
}

/** The relayed transactions whose receipts carry a signature, with who signed them on the client side. */
async function signedCalls(ctx: ConformanceContext): Promise<{ name: string; call: RelayCall; signature: string; wallet: string | undefined }[]> {
  const calls: { name: string; load: () => Promise<RelayCall>; wallet: (c: Awaited<ReturnType<typeof createCall>>) => string | undefined }[] = [
    { name: 'create', load: () => createCall(ctx), wallet: (c) => c.recipient.publicKey.toBase58() },
    { name: 'send', load: () => sendCall(ctx), wallet: (c) => c.funding.owner.publicKey.toBase58() },
    { name: 'sendbatch', load: () => sendBatchCall(ctx), wallet: (c) => c.recipient.publicKey.toBase58() },
    { name: 'close', load: () => closeCall(ctx), wallet: () => undefined },
  ];
  const out = [];
  for (const { name, load, wallet } of calls) {
    const call = await load().catch(() => undefined);
    const signature = call && signatureOf(call);
    if (call && signature) out.push({ name, call, signature, wallet: wallet(await createCall(ctx)) });
  }
  return out;
}

export const relayChecks: Check[] = [
  receiptCheck(
    'relay.create.receipt',
    'POST /Account/create answers the receipt: Queued, the create message, a signature',
    RECEIPT_MESSAGES.create,
    createCall,
  ),
  {
    id: 'relay.create.lands',
    section: '4.2',
    level: 'MUST',
    title: 'The created token account appears on the ledger',
    run: async (ctx) => landedNote(await createLanded(ctx)),
  },
  {
    id: 'relay.send.accepted',
    section: '4.1',
    level: 'MUST',
    title: 'POST /Transaction/send accepts a transfer signed by its owner',
    async run(ctx) {
      const { response } = await sendCall(ctx);
      ensure(response.ok, `not accepted: ${describeResponse(response)}`);
    },
  },
  {
    id: 'relay.send.receipt',
    section: '4.1',
    level: 'SHOULD',
    choice: '#/components/schemas/SendReceipt',
    title: 'POST /Transaction/send answers a receipt: Queued, "Transaction sent successfully", a signature',
    async run(ctx) {
      const { response } = await ctx.need(sendCall(ctx), 'the send relay');
      const problems = receiptProblems(response, RECEIPT_MESSAGES.sendbatch);
      ensure(problems.length === 0, problems.join('; '));
    },
  },
  {
    id: 'relay.send.lands',
    section: '4.2',
    level: 'MUST',
    title: 'The sent tokens arrive in the destination account',
    run: async (ctx) => landedNote(await sendLanded(ctx)),
  },
  receiptCheck(
    'relay.sendbatch.receipt',
    'POST /Transaction/sendbatch answers the receipt: Queued, the send message, a signature',
    RECEIPT_MESSAGES.sendbatch,
    sendBatchCall,
  ),
  {
    id: 'relay.sendbatch.fields',
    section: '4.1',
    level: 'SHOULD',
    choice: '#/components/schemas/SendBatchReceipt',
    title: 'The sendbatch receipt also carries success: true and signatures, which include the signature',
    async run(ctx) {
      const { response } = await ctx.need(sendBatchCall(ctx), 'the sendbatch relay');
      ensure(response.ok, `not accepted: ${describeResponse(response)}`);
      const body = response.json as { success?: unknown; signatures?: unknown; signature?: unknown } | undefined;
      ensure(body?.success === true, `success is ${show(body?.success)}, not true`);
      ensure(
        Array.isArray(body.signatures) && body.signatures.every((s) => typeof s === 'string'),
        `signatures is not an array of strings: ${show(body.signatures)}`,
      );
      ensure(
        (body.signatures as unknown[]).includes(body.signature),
        `signatures ${show(body.signatures)} does not include the signature ${show(body.signature)}`,
      );
    },
  },
  {
    id: 'relay.sendbatch.lands',
    section: '4.1',
    level: 'MUST',
    title: 'Both transfers of the batch land (the account is empty again)',
    run: async (ctx) => landedNote(await sendBatchLanded(ctx)),
  },
  receiptCheck('relay.close.receipt', 'POST /Account/close answers the receipt: Queued, the close message, a signature', RECEIPT_MESSAGES.close, closeCall),
  {
    id: 'relay.close.lands',
    section: '4.2',
    level: 'MUST',
    title: 'The closed token account disappears from the ledger',
    run: async (ctx) => landedNote(await closeLanded(ctx)),
  },
  {
    id: 'relay.signature.fee-payer',
    section: '2.1',
    level: 'MUST',
    title: "A receipt's signature is the transaction signature: FeePayer's ed25519 signature of the message the client signed",
    async run(ctx) {
      await ctx.need(createCall(ctx), 'the relay scenario');
      const feePayer = await ctx.need(ctx.feePayer(), 'the FeePayer');
      const signed = await signedCalls(ctx);
      if (signed.length === 0) skip('no receipt carried a signature');
      const wrong = signed.filter((s) => !isSignatureOf(s.call.built, feePayer, s.signature));
      ensure(
        wrong.length === 0,
        wrong.map((s) => `the ${s.name} receipt's signature ${s.signature} is not FeePayer's signature of that transaction`).join('; '),
      );
      return signed.map((s) => s.name).join(', ');
    },
  },
  {
    id: 'relay.signature.history',
    section: '2.4',
    level: 'MUST',
    title: "Each relayed transaction's signature appears in the history of the wallet that signed it",
    async run(ctx) {
      await ctx.need(createCall(ctx), 'the relay scenario');
      const signed = (await signedCalls(ctx)).filter((s) => s.wallet !== undefined);
      if (signed.length === 0) skip('no receipt carried a signature');
      const missing: string[] = [];
      for (const { name, signature, wallet } of signed) {
        const seen = await ctx.wait(
          () => ctx.history(wallet!, { PageSize: 100 }),
          (entries) => entries.some((e) => e?.signature === signature),
        );
        if (!seen.met) missing.push(`the ${name} signature ${signature} is not in the history of ${wallet} after ${ctx.options.timeoutMs} ms`);
      }
      if (missing.length > 0) fail(missing.join('; '));
      return signed.map((s) => s.name).join(', ');
    },
  },
];
