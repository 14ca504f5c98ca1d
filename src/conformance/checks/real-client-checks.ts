/**
 * SHOULD checks for the request forms and response shapes the vendor's own clients of the current
 * interface use (the Altude Android SDK, altude-js and its demos; docs/real-clients.md). A target
 * that fails one still follows the spec, but that client would break against it.
 */
import { Keypair } from '@solana/web3.js';
import type { ConformanceCheck } from '../check.ts';
import { ensure, show } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { describeResponse, problemCode } from '../describe-response.ts';
import type { TargetResponse } from '../target-client.ts';
import { buildTransaction, transferInstruction } from '../transactions.ts';
import { createCall, createLanded } from './relay-scenario.ts';

type Check = ConformanceCheck<ConformanceContext>;

const SCHEMAS = '#/components/schemas';
const BALANCE_MINT = `${SCHEMAS}/BalanceRequest/properties/mintAddress`;

function object(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Problems with `TokenInfos[i].Account.Data.Parsed.Info.TokenAmount.{Amount, Decimals}`, as Android and the React Native demo read it. */
function tokenInfosProblems(body: unknown): string[] {
  const infos = object(body)?.TokenInfos;
  if (!Array.isArray(infos)) return [`TokenInfos is not an array: ${show(infos)}`];
  return infos.flatMap((info, i) => {
    const amount = object(object(object(object(object(object(info)?.Account)?.Data)?.Parsed)?.Info)?.TokenAmount);
    const problems: string[] = [];
    if (!amount) problems.push(`TokenInfos[${i}].Account.Data.Parsed.Info.TokenAmount is missing`);
    else {
      if (!/^\d+$/.test(String(amount.Amount))) problems.push(`TokenInfos[${i}]…TokenAmount.Amount is not an integer: ${show(amount.Amount)}`);
      if (!Number.isInteger(amount.Decimals)) problems.push(`TokenInfos[${i}]…TokenAmount.Decimals is not an integer: ${show(amount.Decimals)}`);
    }
    return problems;
  });
}

function answeredAlike(a: TargetResponse, b: TargetResponse): boolean {
  return a.status === b.status && problemCode(a) === problemCode(b);
}

export const realClientChecks: Check[] = [
  {
    id: 'forms.lowercase-paths',
    section: '4',
    level: 'SHOULD',
    choice: '#/tags/0',
    title: 'Lower-case paths (the Android SDK sends api/transaction/config, api/account/getaccountinfo) answer as the documented ones',
    async run(ctx) {
      const feePayer = (await ctx.need(ctx.feePayer(), 'the FeePayer of the configuration record')).toBase58();
      const config = await ctx.client.request({ method: 'GET', path: '/transaction/config' });
      const info = await ctx.client.request({ method: 'POST', path: '/account/getaccountinfo', json: { accountAddress: feePayer } });
      ensure(config.ok && typeof object(config.json)?.FeePayer === 'string', `GET /transaction/config: ${describeResponse(config)}`);
      ensure(info.ok, `POST /account/getaccountinfo: ${describeResponse(info)}`);
      return `${config.label}; ${info.label}`;
    },
  },
  {
    id: 'forms.receipt-pascal-case',
    section: '2.1',
    level: 'SHOULD',
    choice: `${SCHEMAS}/RelayReceipt/properties/Status`,
    title: 'A relay receipt carries Status, Message and Signature too (the Android SDK requires them)',
    async run(ctx) {
      const { response } = await ctx.need(createCall(ctx), 'the relay scenario’s account creation');
      const body = object(response.json);
      ensure(response.ok && body, `the creation was not accepted: ${describeResponse(response)}`);
      const missing = (['Status', 'Message', 'Signature'] as const).filter((key) => typeof body[key] !== 'string');
      ensure(missing.length === 0, `missing ${missing.join(', ')}: ${show(body)}`);
      ensure(body.Signature === body.signature && body.Status === body.status, `PascalCase values differ from the spec's keys: ${show(body)}`);
      return `Status ${String(body.Status)}`;
    },
  },
  {
    id: 'forms.transaction-alias',
    section: '4.1',
    level: 'SHOULD',
    choice: `${SCHEMAS}/SignedTransactionRequest/properties/signedTransaction`,
    title: 'Transaction/send binds the older altude-js body {transaction} and {SignedTransaction} as {signedTransaction}',
    async run(ctx) {
      // A transaction with a stranger as fee payer: refused once bound, whatever the target's rules,
      // and refused differently (as a missing field) when the name is not bound.
      const recent = await ctx.need(ctx.recentBlockhash(), 'a recent blockhash');
      const owner = Keypair.generate();
      const stranger = Keypair.generate();
      const ix = transferInstruction({ source: owner.publicKey, destination: owner.publicKey, authority: owner, amount: 1n });
      const { base64 } = buildTransaction(stranger.publicKey, recent, [ix], [stranger, owner]);
      const send = (json: unknown) => ctx.client.request({ method: 'POST', path: '/Transaction/send', json });
      const canonical = await send({ signedTransaction: base64 });
      const alias = await send({ transaction: base64, commitment: 'confirmed' });
      const pascal = await send({ SignedTransaction: base64 });
      ensure(answeredAlike(alias, canonical), `{transaction} → ${describeResponse(alias)}, but {signedTransaction} → ${describeResponse(canonical)}`);
      ensure(answeredAlike(pascal, canonical), `{SignedTransaction} → ${describeResponse(pascal)}, but {signedTransaction} → ${describeResponse(canonical)}`);
      return `all three → ${describeResponse(canonical)}`;
    },
  },
  {
    id: 'forms.balance-empty-mint',
    section: '4.1',
    level: 'SHOULD',
    choice: BALANCE_MINT,
    title: 'Account/balance takes mintAddress "" as no mint (altude-js sends it)',
    async run(ctx) {
      // A wallet nobody touches, so that the two answers can be compared whole.
      const wallet = Keypair.generate().publicKey.toBase58();
      const empty = await ctx.client.request({ method: 'POST', path: '/Account/balance', json: { accountAddress: wallet, mintAddress: '' } });
      const absent = await ctx.client.request({ method: 'POST', path: '/Account/balance', json: { accountAddress: wallet } });
      ensure(empty.ok, `mintAddress "" → ${describeResponse(empty)}`);
      ensure(absent.ok && empty.text === absent.text, `mintAddress "" is answered otherwise than no mintAddress: ${show(empty.json)} vs ${show(absent.json)}`);
      return describeResponse(empty);
    },
  },
  {
    id: 'forms.balance-legacy-body',
    section: '4.1',
    level: 'SHOULD',
    choice: `${SCHEMAS}/BalanceRequest/properties/accountAddress`,
    title: 'Account/balance binds the older altude-js body {address, mint}',
    async run(ctx) {
      const funding = await ctx.need(ctx.funding(), 'a funded owner and a mint');
      const owner = funding.owner.publicKey.toBase58();
      const mint = funding.mint.toBase58();
      const old = await ctx.client.request({ method: 'POST', path: '/Account/balance', json: { address: owner, mint } });
      const current = await ctx.client.request({ method: 'POST', path: '/Account/balance', json: { accountAddress: owner, mintAddress: mint } });
      ensure(old.ok, `{address, mint} → ${describeResponse(old)}`);
      const keys = (res: TargetResponse) =>
        Object.keys(object(res.json) ?? {})
          .sort()
          .join(',');
      ensure(
        current.ok && keys(old) === keys(current),
        `{address, mint} is answered otherwise than {accountAddress, mintAddress}: ${show(old.json)} vs ${show(current.json)}`,
      );
      ensure(old.text.includes(owner), `the answer does not name the owner ${owner}: ${show(old.json)}`);
      return describeResponse(old);
    },
  },
  {
    id: 'forms.balance-token-infos',
    section: '4.1',
    level: 'SHOULD',
    choice: `${SCHEMAS}/BalanceResult/properties/AccountAddress`,
    title: 'Account/balance answers AccountAddress and TokenInfos[i].Account.Data.Parsed.Info.TokenAmount.{Amount, Decimals} (Android, the React Native demo)',
    async run(ctx) {
      const funding = await ctx.need(ctx.funding(), 'a funded owner and a mint');
      const owner = funding.owner.publicKey.toBase58();
      const res = await ctx.client.request({ method: 'POST', path: '/Account/balance', json: { accountAddress: owner, mintAddress: funding.mint.toBase58() } });
      ensure(res.ok, describeResponse(res));
      const problems = tokenInfosProblems(res.json);
      if (object(res.json)?.AccountAddress !== owner) problems.push(`AccountAddress is ${show(object(res.json)?.AccountAddress)}, not ${owner}`);
      const infos = object(res.json)?.TokenInfos;
      if (Array.isArray(infos) && infos.length === 0) problems.push('TokenInfos is empty for an owner holding the mint');
      ensure(problems.length === 0, problems.slice(0, 3).join('; '));
      return `${(infos as unknown[]).length} token info(s)`;
    },
  },
  {
    id: 'forms.account-info-pascal',
    section: '2.3',
    level: 'SHOULD',
    choice: `${SCHEMAS}/AccountInfoResponse`,
    title: 'Account/getaccountinfo answers AccountAddress, AccountInfo and TokenInfos beside accountInfo (the Android SDK requires them)',
    async run(ctx) {
      const feePayer = (await ctx.need(ctx.feePayer(), 'the FeePayer of the configuration record')).toBase58();
      const res = await ctx.client.request({ method: 'POST', path: '/Account/getaccountinfo', json: { accountAddress: feePayer } });
      const body = object(res.json);
      ensure(res.ok && body, describeResponse(res));
      const problems = tokenInfosProblems(body);
      if (body.AccountAddress !== feePayer) problems.push(`AccountAddress is ${show(body.AccountAddress)}`);
      if (!object(body.AccountInfo)) problems.push(`AccountInfo is not an object: ${show(body.AccountInfo)}`);
      ensure(problems.length === 0, problems.slice(0, 3).join('; '));
    },
  },
  {
    id: 'forms.account-info-gasless-wallet',
    section: '2.3',
    level: 'SHOULD',
    choice: `${SCHEMAS}/AccountInfoResponse`,
    title: 'Account/getaccountinfo answers a wallet with no SOL that owns a token account (a gasless wallet), not 404',
    async run(ctx) {
      const call = await ctx.need(createCall(ctx), 'the relay scenario’s account creation');
      await ctx.need(createLanded(ctx), 'the created account on the ledger');
      const res = await ctx.client.request({ method: 'POST', path: '/Account/getaccountinfo', json: { accountAddress: call.recipient.publicKey.toBase58() } });
      ensure(res.ok, `the recipient of the scenario (no SOL, one token account) → ${describeResponse(res)}`);
      return describeResponse(res);
    },
  },
  {
    id: 'forms.blockhash-post',
    section: '4.1',
    level: 'SHOULD',
    choice: '#/paths/~1Transaction~1blockhash/post',
    title: 'POST /Transaction/blockhash with {} answers a Blockhash (the older altude-js client)',
    async run(ctx) {
      const res = await ctx.client.request({ method: 'POST', path: '/Transaction/blockhash', json: {} });
      ensure(res.ok && typeof object(res.json)?.Blockhash === 'string', describeResponse(res));
      return describeResponse(res);
    },
  },
  {
    id: 'forms.history-android-query',
    section: '4.1.1',
    level: 'SHOULD',
    choice: '#/paths/~1Account~1gethistory/post/parameters/1',
    title: 'gethistory?Page=0&PageSize=10&walletAddress=… with no body (the Android SDK) answers the first page',
    async run(ctx) {
      // The scenario's recipient: a few entries, and nothing moves them any more once the scenario is over.
      const call = await createCall(ctx).catch(() => undefined);
      const wallet = call?.response.ok ? call.recipient.publicKey.toBase58() : Keypair.generate().publicKey.toBase58();
      const android = await ctx.client.request({ method: 'POST', path: '/account/gethistory', query: { Page: 0, PageSize: 10, walletAddress: wallet } });
      const first = await ctx.client.request({ method: 'POST', path: '/Account/gethistory', query: { WalletAddress: wallet, PageNumber: 1, PageSize: 10 } });
      ensure(android.ok && Array.isArray(object(android.json)?.transactions), describeResponse(android));
      ensure(android.text === first.text, `Page=0 is answered otherwise than PageNumber=1: ${show(android.json)} vs ${show(first.json)}`);
      return `${(object(android.json)!.transactions as unknown[]).length} entries`;
    },
  },
];
