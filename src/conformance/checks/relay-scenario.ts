/**
 * The relay scenario, as memoised steps: create an account for a fresh recipient, send it 2 base
 * units from the owner, send them back in one sendbatch (two transfers), close the emptied account.
 * The scenario leaves the owner's balance as it found it and returns the account's rent to the
 * fee payer. Each step waits (bounded) for its effect, since relaying is asynchronous.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, type PublicKey } from '@solana/web3.js';
import { fail, show, skip } from '../check.ts';
import type { ConformanceContext, Funding } from '../context.ts';
import { describeResponse } from '../describe-response.ts';
import type { TargetResponse } from '../target-client.ts';
import {
  associatedTokenAddress,
  buildTransaction,
  closeAccountInstruction,
  createAccountInstructions,
  transferInstruction,
  type BuiltTransaction,
} from '../transactions.ts';

/** Sent to the recipient, then sent back as two transfers of different amounts (identical instructions would be a duplicate). */
export const SEND_AMOUNT = 3n;

export interface RelayCall {
  built: BuiltTransaction;
  response: TargetResponse;
}

export interface CreateCall extends RelayCall {
  recipient: Keypair;
  /** The recipient's associated token account, made by the create. */
  account: PublicKey;
  funding: Funding;
  feePayer: PublicKey;
}

export function createCall(ctx: ConformanceContext): Promise<CreateCall> {
  return ctx.step('relay-create', async () => {
    const funding = await ctx.need(ctx.funding(), 'a funded owner and a mint');
    const feePayer = await ctx.need(ctx.feePayer(), 'the FeePayer of the configuration record');
    const recent = await ctx.need(ctx.recentBlockhash(), 'a recent blockhash');
    const recipient = Keypair.generate();
    const account = associatedTokenAddress(recipient.publicKey, funding.mint);
    const built = buildTransaction(feePayer, recent, createAccountInstructions(feePayer, recipient.publicKey, funding.mint), [recipient]);
    const response = await ctx.client.request({ method: 'POST', path: '/Account/create', json: { signedTransaction: built.base64 } });
    return { built, response, recipient, account, funding, feePayer };
  });
}

function accepted(call: RelayCall, what: string): void {
  if (!call.response.ok) fail(`the ${what} was not accepted: ${describeResponse(call.response)}`);
}

export function createLanded(ctx: ConformanceContext): Promise<{ elapsedMs: number }> {
  return ctx.step('relay-create-landed', async () => {
    const call = await createCall(ctx);
    accepted(call, 'create');
    const seen = await ctx.wait(
      () => ctx.accountState(call.account.toBase58()),
      (s) => s.exists === true,
    );
    if (!seen.met) {
      fail(`${call.account.toBase58()} did not appear within ${ctx.options.timeoutMs} ms (last: ${show(seen.last)})`);
    }
    const state = seen.value;
    if (state.exists && state.owner !== TOKEN_PROGRAM_ID.toBase58()) {
      fail(`${call.account.toBase58()} appeared, owned by ${state.owner} instead of the token program`);
    }
    return { elapsedMs: seen.elapsedMs };
  });
}

async function amountOf(ctx: ConformanceContext, call: CreateCall) {
  return ctx.tokenAmount(call.recipient.publicKey.toBase58(), call.funding.mint.toBase58(), call.account.toBase58());
}

async function waitForAmount(ctx: ConformanceContext, call: CreateCall, expected: bigint): Promise<{ elapsedMs: number }> {
  const seen = await ctx.wait(
    () => amountOf(ctx, call),
    (a) => a.amount === expected,
  );
  if (!seen.met) {
    const last = seen.last;
    fail(
      `${call.account.toBase58()} did not reach ${expected} base units within ${ctx.options.timeoutMs} ms (last: ` +
        `${last?.amount ?? 'unknown'}${last?.amount === undefined ? `, ${last?.note}` : ''})`,
    );
  }
  return { elapsedMs: seen.elapsedMs };
}

export function sendCall(ctx: ConformanceContext): Promise<RelayCall> {
  return ctx.step('relay-send', async () => {
    await ctx.need(createLanded(ctx), 'the account made by the create relay');
    const call = await createCall(ctx);
    const { funding, feePayer } = call;
    const recent = await ctx.need(ctx.recentBlockhash(), 'a recent blockhash');
    const ix = transferInstruction({
      source: funding.ownerAccount,
      destination: call.account,
      authority: funding.owner,
      amount: SEND_AMOUNT,
      mint: funding.mint,
      decimals: funding.decimals,
    });
    const built = buildTransaction(feePayer, recent, [ix], [funding.owner]);
    const response = await ctx.client.request({ method: 'POST', path: '/Transaction/send', json: { signedTransaction: built.base64 } });
    return { built, response };
  });
}

export function sendLanded(ctx: ConformanceContext): Promise<{ elapsedMs: number }> {
  return ctx.step('relay-send-landed', async () => {
    const send = await sendCall(ctx);
    accepted(send, 'send');
    return waitForAmount(ctx, await createCall(ctx), SEND_AMOUNT);
  });
}

export function sendBatchCall(ctx: ConformanceContext): Promise<RelayCall> {
  return ctx.step('relay-sendbatch', async () => {
    await ctx.need(sendLanded(ctx), 'the tokens sent by the send relay');
    const call = await createCall(ctx);
    const { funding, feePayer } = call;
    const recent = await ctx.need(ctx.recentBlockhash(), 'a recent blockhash');
    const back = (amount: bigint) =>
      transferInstruction({
        source: call.account,
        destination: funding.ownerAccount,
        authority: call.recipient,
        amount,
        mint: funding.mint,
        decimals: funding.decimals,
      });
    const half = SEND_AMOUNT / 2n;
    const built = buildTransaction(feePayer, recent, [back(half), back(SEND_AMOUNT - half)], [call.recipient]);
    const response = await ctx.client.request({ method: 'POST', path: '/Transaction/sendbatch', json: { signedTransaction: built.base64 } });
    return { built, response };
  });
}

export function sendBatchLanded(ctx: ConformanceContext): Promise<{ elapsedMs: number }> {
  return ctx.step('relay-sendbatch-landed', async () => {
    const batch = await sendBatchCall(ctx);
    accepted(batch, 'sendbatch');
    return waitForAmount(ctx, await createCall(ctx), 0n);
  });
}

export function closeCall(ctx: ConformanceContext): Promise<RelayCall> {
  return ctx.step('relay-close', async () => {
    await ctx.need(createLanded(ctx), 'the account made by the create relay');
    const call = await createCall(ctx);
    const held = await amountOf(ctx, call);
    if (held.amount !== 0n) {
      skip(`${call.account.toBase58()} is not empty (${held.amount ?? held.note}), so it cannot be closed: the sendbatch did not bring its tokens back`);
    }
    const recent = await ctx.need(ctx.recentBlockhash(), 'a recent blockhash');
    const built = buildTransaction(call.feePayer, recent, [closeAccountInstruction(call.feePayer, call.account)], []);
    const response = await ctx.client.request({ method: 'POST', path: '/Account/close', json: { signedTransaction: built.base64 } });
    return { built, response };
  });
}

export function closeLanded(ctx: ConformanceContext): Promise<{ elapsedMs: number }> {
  return ctx.step('relay-close-landed', async () => {
    const close = await closeCall(ctx);
    accepted(close, 'close');
    const call = await createCall(ctx);
    const seen = await ctx.wait(
      () => ctx.accountState(call.account.toBase58()),
      (s) => s.exists === false,
    );
    if (!seen.met) fail(`${call.account.toBase58()} was still there after ${ctx.options.timeoutMs} ms (last: ${show(seen.last)})`);
    return { elapsedMs: seen.elapsedMs };
  });
}
