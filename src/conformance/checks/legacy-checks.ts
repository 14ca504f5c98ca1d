import { Keypair, type PublicKey } from '@solana/web3.js';
import type { ConformanceCheck } from '../check.ts';
import { ensure, fail, show, skip } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { describeResponse } from '../describe-response.ts';
import type { TargetResponse } from '../target-client.ts';
import {
  associatedTokenAddress,
  buildTransaction,
  createAccountInstructions,
  toPublicKey,
  transferInstruction,
  type RecentBlockhash,
} from '../transactions.ts';
import type { LegacyTarget } from '../types.ts';

type Check = ConformanceCheck<ConformanceContext>;
export type Json = Record<string, unknown>;

/** Base units the legacy make-transfer moves. */
export const LEGACY_AMOUNT = 1n;

export function target(ctx: ConformanceContext): LegacyTarget {
  if (!ctx.options.legacy) skip('no legacy app given (--legacy ENV/INDEX, options.legacy)');
  return ctx.options.legacy;
}

export function legacyPath(t: LegacyTarget, ...segments: string[]): string {
  return segments.map((s) => s.replace('{env}', encodeURIComponent(t.environment)).replace('{index}', String(t.index))).join('/');
}

/** GET /app/{environment}/{index}/config; skips when the target has no such app (404). */
function appConfig(ctx: ConformanceContext): Promise<{ response: TargetResponse; config: Json }> {
  return ctx.step('legacy-app-config', async () => {
    const t = target(ctx);
    const response = await ctx.client.request({ method: 'GET', path: `/${legacyPath(t, 'app', '{env}', '{index}', 'config')}`, auth: 'none' });
    if (response.status === 404) skip(`the target has no legacy app ${t.environment}/${t.index}: ${describeResponse(response)}`);
    if (!response.ok) fail(`the legacy app config read failed: ${describeResponse(response)}`);
    const config = response.json;
    if (typeof config !== 'object' || config === null || Array.isArray(config)) fail(`not a JSON object: ${describeResponse(response)}`);
    return { response, config: config as Json };
  });
}

const MINT_FIELDS: [string, 'boolean' | 'integer' | 'string'][] = [
  ['addMemo', 'boolean'],
  ['airdrop', 'boolean'],
  ['airdropAmount', 'integer'],
  ['airdropMax', 'integer'],
  ['decimals', 'integer'],
  ['feePayer', 'string'],
  ['logoUrl', 'string'],
  ['name', 'string'],
  ['programId', 'string'],
  ['publicKey', 'string'],
  ['symbol', 'string'],
];

const CONFIG_FIELDS: [string, 'integer' | 'string'][] = [
  ['app.index', 'integer'],
  ['app.name', 'string'],
  ['api.name', 'string'],
  ['api.version', 'string'],
  ['environment.name', 'string'],
  ['environment.explorer', 'string'],
  ['environment.cluster.endpoint', 'string'],
  ['environment.cluster.id', 'string'],
  ['environment.cluster.name', 'string'],
  ['environment.cluster.type', 'string'],
];

function at(value: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((acc, key) => (acc && typeof acc === 'object' ? (acc as Json)[key] : undefined), value);
}

function typeProblem(value: unknown, type: 'boolean' | 'integer' | 'string'): boolean {
  return type === 'integer' ? !Number.isInteger(value) : typeof value !== type;
}

function mintProblems(entry: unknown, where: string): string[] {
  if (typeof entry !== 'object' || entry === null) return [`${where} is not an object: ${show(entry)}`];
  return MINT_FIELDS.filter(([name, type]) => typeProblem((entry as Json)[name], type)).map(
    ([name, type]) => `${where}.${name} is not ${type === 'integer' ? 'an integer' : `a ${type}`}: ${show((entry as Json)[name])}`,
  );
}

interface LegacyMint {
  mint: PublicKey;
  feePayer: PublicKey;
  decimals: number;
}

async function defaultMint(ctx: ConformanceContext): Promise<LegacyMint> {
  const { config } = await ctx.need(appConfig(ctx), 'the legacy app config');
  const entry = config.mint as Json | undefined;
  const mint = typeof entry?.publicKey === 'string' ? toPublicKey(entry.publicKey) : undefined;
  const feePayer = typeof entry?.feePayer === 'string' ? toPublicKey(entry.feePayer) : undefined;
  if (!mint || !feePayer || !Number.isInteger(entry?.decimals)) skip(`the legacy app config has no usable default mint: ${show(entry)}`);
  return { mint, feePayer, decimals: entry!.decimals as number };
}

/** An owner holding the app's default mint: the configured owner, else a fresh one funded through /__emulator. */
export function legacyFunding(ctx: ConformanceContext): Promise<{ owner: Keypair; mint: LegacyMint }> {
  return ctx.step('legacy-funding', async () => {
    const mint = await defaultMint(ctx);
    const has = async (owner: Keypair) =>
      (await ctx.tokenAmount(owner.publicKey.toBase58(), mint.mint.toBase58(), associatedTokenAddress(owner.publicKey, mint.mint).toBase58())).amount ?? 0n;
    const configured = ctx.options.ownerKeypair;
    if (configured && (await has(configured)) >= LEGACY_AMOUNT) return { owner: configured, mint };
    const detection = await ctx.controls();
    if (!detection.found) {
      skip(
        `no owner holding the app's mint ${mint.mint.toBase58()}: pass --owner-keypair of one, or run against a target with /__emulator routes ` +
          `(${detection.reason})`,
      );
    }
    const owner = Keypair.generate();
    await detection.controls.fundTokens(owner.publicKey.toBase58(), mint.mint.toBase58(), 1_000n);
    return { owner, mint };
  });
}

/** A recent blockhash: the legacy latest-blockhash route, else the current interface's. */
export async function legacyBlockhash(ctx: ConformanceContext, t: LegacyTarget): Promise<RecentBlockhash> {
  const res = await ctx.client.request({ method: 'GET', path: `/${legacyPath(t, 'transaction', 'latest-blockhash', '{env}', '{index}')}`, auth: 'none' });
  const body = res.json as { blockhash?: unknown; lastValidBlockHeight?: unknown } | undefined;
  if (res.ok && typeof body?.blockhash === 'string' && typeof body.lastValidBlockHeight === 'number') {
    return { blockhash: body.blockhash, lastValidBlockHeight: body.lastValidBlockHeight };
  }
  return ctx.need(ctx.recentBlockhash(), 'a recent blockhash');
}

const ISO = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));

export const legacyChecks: Check[] = [
  {
    id: 'legacy.app-config',
    section: '2.6',
    level: 'MUST',
    title: 'GET /app/{environment}/{index}/config answers the legacy app configuration record',
    async run(ctx) {
      const t = target(ctx);
      const { config } = await appConfig(ctx);
      const problems = CONFIG_FIELDS.filter(([path, type]) => typeProblem(at(config, path), type)).map(
        ([path, type]) => `${path} is not ${type === 'integer' ? 'an integer' : `a string`}: ${show(at(config, path))}`,
      );
      if (Number.isInteger(at(config, 'app.index')) && at(config, 'app.index') !== t.index) {
        problems.push(`app.index is ${show(at(config, 'app.index'))}, not the requested ${t.index}`);
      }
      problems.push(...mintProblems(config.mint, 'mint'));
      if (!Array.isArray(config.mints)) problems.push(`mints is not an array: ${show(config.mints)}`);
      else for (const [i, m] of config.mints.entries()) problems.push(...mintProblems(m, `mints[${i}]`));
      ensure(problems.length === 0, problems.slice(0, 6).join('; '));
    },
  },
  {
    id: 'legacy.balance',
    section: '4.3',
    level: 'MUST',
    title: 'GET /account/balance/{environment}/{index}/{accountId} answers JSON',
    async run(ctx) {
      const t = target(ctx);
      const { feePayer } = await defaultMint(ctx);
      const account = (await legacyFunding(ctx).catch(() => undefined))?.owner.publicKey ?? feePayer;
      const res = await ctx.client.request({
        method: 'GET',
        path: `/${legacyPath(t, 'account', 'balance', '{env}', '{index}', account.toBase58())}`,
        auth: 'none',
      });
      ensure(res.ok && res.json !== undefined, `expected 2xx JSON: ${describeResponse(res)}`);
    },
  },
  {
    id: 'legacy.history',
    section: '4.3',
    level: 'MUST',
    title: 'GET /account/history/{environment}/{index}/{accountId}/{mint} answers JSON',
    async run(ctx) {
      const t = target(ctx);
      const { mint, feePayer } = await defaultMint(ctx);
      const account = (await legacyFunding(ctx).catch(() => undefined))?.owner.publicKey ?? feePayer;
      const res = await ctx.client.request({
        method: 'GET',
        path: `/${legacyPath(t, 'account', 'history', '{env}', '{index}', account.toBase58(), mint.toBase58())}`,
        auth: 'none',
      });
      ensure(res.ok && res.json !== undefined, `expected 2xx JSON: ${describeResponse(res)}`);
    },
  },
  {
    id: 'legacy.make-transfer',
    section: '4.3',
    level: 'MUST',
    title: 'POST /transaction/make-transfer relays a transfer and answers the legacy transaction record',
    async run(ctx) {
      const t = target(ctx);
      const { owner, mint } = await legacyFunding(ctx);
      const recent = await legacyBlockhash(ctx, t);
      const recipient = Keypair.generate();
      const built = buildTransaction(
        mint.feePayer,
        recent,
        [
          ...createAccountInstructions(mint.feePayer, recipient.publicKey, mint.mint),
          transferInstruction({
            source: associatedTokenAddress(owner.publicKey, mint.mint),
            destination: associatedTokenAddress(recipient.publicKey, mint.mint),
            authority: owner,
            amount: LEGACY_AMOUNT,
            mint: mint.mint,
            decimals: mint.decimals,
          }),
        ],
        [recipient, owner],
      );
      const res = await ctx.client.request({
        method: 'POST',
        path: '/transaction/make-transfer',
        auth: 'none',
        json: {
          commitment: 'Confirmed',
          environment: t.environment,
          index: t.index,
          mint: mint.mint.toBase58(),
          lastValidBlockHeight: recent.lastValidBlockHeight,
          referenceId: 'relay-conformance',
          referenceType: 'conformance',
          tx: built.base64,
        },
      });
      ensure(res.ok, `not accepted: ${describeResponse(res)}`);
      const record = res.json as Json | undefined;
      ensure(typeof record === 'object' && record !== null && !Array.isArray(record), `not a JSON object: ${describeResponse(res)}`);
      const problems: string[] = [];
      for (const name of ['id', 'status', 'tx', 'mint', 'feePayer']) {
        if (typeof record[name] !== 'string') problems.push(`${name} is not a string: ${show(record[name])}`);
      }
      for (const name of ['createdAt', 'updatedAt']) if (!ISO(record[name])) problems.push(`${name} is not an ISO 8601 timestamp: ${show(record[name])}`);
      if (!Array.isArray(record.errors)) problems.push(`errors is not an array: ${show(record.errors)}`);
      else if (record.errors.length > 0) problems.push(`errors is not empty: ${show(record.errors)}`);
      if (record.status === 'Failed') problems.push('status is Failed');
      ensure(problems.length === 0, problems.join('; '));
      return `status ${String(record.status)}`;
    },
  },
];
