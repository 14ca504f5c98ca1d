import { Keypair } from '@solana/web3.js';
import type { ConformanceCheck } from '../check.ts';
import { CheckFailure, ensure, fail, show } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { describeResponse } from '../describe-response.ts';
import type { TargetResponse } from '../target-client.ts';
import { associatedTokenAddress, buildTransaction, transferInstruction, type RecentBlockhash } from '../transactions.ts';
import { LEGACY_AMOUNT, legacyBlockhash, legacyFunding, legacyPath, target, type Json } from './legacy-checks.ts';

/**
 * SHOULD checks for the forms Kin's Kinetic SDK (1.0.0-rc.1 to rc.18, the legacy interface's real
 * client) sends and relies on, so that another implementation learns whether that SDK would work
 * against it: null reference fields, `?commitment=` on reads, empty listing parameters, and a 201
 * Failed record for a submission the ledger refuses. Each moves at most LEGACY_AMOUNT from the
 * owner to its own account, so a run costs the owner nothing and the fee payer only fees.
 */
type Check = ConformanceCheck<ConformanceContext>;

interface Relayed {
  response: TargetResponse;
  record: Json;
}

/** A make-transfer of the owner's tokens to its own account, with Kinetic's body head and the given reference fields. */
async function selfTransfer(ctx: ConformanceContext, reference: Json, recent?: RecentBlockhash): Promise<Relayed> {
  const t = target(ctx);
  const { owner, mint } = await legacyFunding(ctx);
  const latest = await legacyBlockhash(ctx, t);
  const account = associatedTokenAddress(owner.publicKey, mint.mint);
  const built = buildTransaction(
    mint.feePayer,
    recent ?? latest,
    [transferInstruction({ source: account, destination: account, authority: owner, amount: LEGACY_AMOUNT, mint: mint.mint, decimals: mint.decimals })],
    [owner],
  );
  const head = {
    commitment: 'Confirmed',
    environment: t.environment,
    index: t.index,
    lastValidBlockHeight: latest.lastValidBlockHeight,
    mint: mint.mint.toBase58(),
  };
  const response = await ctx.client.request({
    method: 'POST',
    path: '/transaction/make-transfer',
    auth: 'none',
    json: { ...head, ...reference, tx: built.base64 },
  });
  const record = response.json;
  ensure(response.ok, `not accepted: ${describeResponse(response)}`);
  ensure(typeof record === 'object' && record !== null && !Array.isArray(record), `not a JSON object: ${describeResponse(response)}`);
  return { response, record: record as Json };
}

function expectRelayed({ record }: Relayed): string {
  ensure(
    record.status !== 'Failed' && Array.isArray(record.errors) && record.errors.length === 0,
    `a Failed record: status ${show(record.status)}, errors ${show(record.errors)}`,
  );
  ensure(typeof record.signature === 'string', `no signature: ${show(record.signature)}`);
  return `status ${String(record.status)}`;
}

/** SDK rc.15-rc.18's make-transfer: `reference: null`. Memoised: the listing check looks its record up. */
function nullReferenceTransfer(ctx: ConformanceContext): Promise<Relayed> {
  return ctx.step('legacy-kinetic-null-reference', () => selfTransfer(ctx, { reference: null }));
}

export const kineticChecks: Check[] = [
  {
    id: 'legacy.kinetic.null-reference',
    section: '4.3',
    level: 'SHOULD',
    choice: '#/components/schemas/LegacyReference',
    title: 'make-transfer relays a body with `reference: null`, as Kinetic SDK rc.15 to rc.18 send it',
    async run(ctx) {
      return expectRelayed(await nullReferenceTransfer(ctx));
    },
  },
  {
    id: 'legacy.kinetic.null-reference-pair',
    section: '4.3',
    level: 'SHOULD',
    choice: '#/components/schemas/LegacyReferenceId',
    title: 'make-transfer relays a body with `referenceId: null, referenceType: null`, as Kinetic SDK rc.1 sends it',
    async run(ctx) {
      return expectRelayed(await selfTransfer(ctx, { referenceId: null, referenceType: null }));
    },
  },
  {
    id: 'legacy.kinetic.listing-empty-values',
    section: '4.3',
    level: 'SHOULD',
    choice: '#/paths/~1transaction~1legacy-transaction~1{environment}~1{index}/get',
    title: 'The transaction listing finds a record by `?reference=&signature=<signature>`, as Kinetic SDK rc.15+ asks',
    async run(ctx) {
      const t = target(ctx);
      const { record } = await ctx.need(nullReferenceTransfer(ctx), 'a make-transfer with reference null');
      ensure(typeof record.signature === 'string', `the make-transfer record has no signature: ${show(record.signature)}`);
      const query = new URLSearchParams({ reference: '', signature: record.signature });
      const res = await ctx.client.request({
        method: 'GET',
        path: `/${legacyPath(t, 'transaction', 'legacy-transaction', '{env}', '{index}')}?${query}`,
        auth: 'none',
      });
      ensure(res.ok && Array.isArray(res.json), `expected a 2xx JSON array: ${describeResponse(res)}`);
      ensure(
        (res.json as Json[]).some((found) => found.id === record.id),
        `record ${show(record.id)} is not in ${show(res.json)}`,
      );
    },
  },
  {
    id: 'legacy.kinetic.read-commitment',
    section: '4.3',
    level: 'SHOULD',
    choice: '#/components/parameters/LegacyReadCommitment',
    title: 'Reads take `?commitment=Confirmed`, as Kinetic SDK rc.11+ sends it on every read',
    async run(ctx) {
      const t = target(ctx);
      const { owner } = await legacyFunding(ctx);
      const res = await ctx.client.request({
        method: 'GET',
        path: `/${legacyPath(t, 'account', 'balance', '{env}', '{index}', owner.publicKey.toBase58())}?commitment=Confirmed`,
        auth: 'none',
      });
      ensure(res.ok && res.json !== undefined, `expected 2xx JSON: ${describeResponse(res)}`);
    },
  },
  {
    id: 'legacy.kinetic.failed-record',
    section: '7.1',
    level: 'SHOULD',
    choice: '#/paths/~1transaction~1make-transfer/post',
    title: 'A transfer on a blockhash the ledger never issued is answered 201 with a Failed record (BadNonce), nothing relayed',
    async run(ctx) {
      const unknown = { blockhash: Keypair.generate().publicKey.toBase58(), lastValidBlockHeight: 0 };
      const { response, record } = await selfTransfer(ctx, {}, unknown).catch((error: unknown) => {
        if (!(error instanceof CheckFailure)) throw error;
        fail(`${error.message} (Kinetic SDKs read any non-2xx answer as an error, not as the record of a failed submission)`);
      });
      const errors = Array.isArray(record.errors) ? (record.errors as Json[]) : [];
      const problems: string[] = [];
      if (response.status !== 201) problems.push(`status code ${response.status}, not 201`);
      if (record.status !== 'Failed') problems.push(`status ${show(record.status)}, not "Failed"`);
      if (errors[0]?.type !== 'BadNonce') problems.push(`errors[0].type ${show(errors[0]?.type)}, not "BadNonce"`);
      if (record.signature !== null && record.signature !== undefined) problems.push(`a signature (${show(record.signature)}): was it submitted?`);
      ensure(problems.length === 0, problems.join('; '));
      return `${String(errors[0]?.type)}: ${show(errors[0]?.message, 80)}`;
    },
  },
];
