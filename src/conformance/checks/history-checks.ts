import { Keypair } from '@solana/web3.js';
import type { ConformanceCheck } from '../check.ts';
import { ensure, fail, show, skip } from '../check.ts';
import type { ConformanceContext, HistoryEntrySeen } from '../context.ts';
import { describeResponse } from '../describe-response.ts';
import { createCall, sendBatchLanded, closeLanded } from './relay-scenario.ts';

type Check = ConformanceCheck<ConformanceContext>;

/** The largest page the contract allows (PageSize 1..100). */
const BIG_PAGE = 100;
/** At most this many entries are paged through in small pages. */
const PAGED = 12;

/**
 * A wallet with a few history entries that nobody else touches: the scenario's recipient once
 * the scenario is over (create, send, sendbatch, close), else the configured owner.
 */
function historyWallet(ctx: ConformanceContext): Promise<{ wallet: string; entries: HistoryEntrySeen[] }> {
  return ctx.step('history-wallet', async () => {
    let wallet: string | undefined;
    const scenario = await createCall(ctx).catch(() => undefined);
    if (scenario?.response.ok) {
      // Let the scenario finish so that the history no longer moves.
      await sendBatchLanded(ctx).catch(() => undefined);
      await closeLanded(ctx).catch(() => undefined);
      wallet = scenario.recipient.publicKey.toBase58();
    } else if (ctx.options.ownerKeypair) {
      wallet = ctx.options.ownerKeypair.publicKey.toBase58();
    } else {
      const funding = await ctx.need(ctx.funding(), 'a wallet with history (a funded owner and a mint for the relay scenario)');
      wallet = funding.owner.publicKey.toBase58();
    }
    const entries = await ctx.history(wallet, { PageSize: BIG_PAGE });
    return { wallet, entries };
  });
}

function entryProblems(entries: unknown[]): string[] {
  const problems: string[] = [];
  entries.forEach((entry, i) => {
    const e = entry as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null) problems.push(`[${i}] is not an object: ${show(entry)}`);
    else {
      if (typeof e.signature !== 'string' || e.signature === '') problems.push(`[${i}].signature is not a string: ${show(e.signature)}`);
      if (!Number.isInteger(e.slot)) problems.push(`[${i}].slot is not an integer: ${show(e.slot)}`);
      if (!Number.isInteger(e.blockTime)) problems.push(`[${i}].blockTime is not an integer (Unix seconds): ${show(e.blockTime)}`);
    }
  });
  return problems;
}

async function enoughHistory(ctx: ConformanceContext, minimum: number) {
  const found = await historyWallet(ctx);
  if (found.entries.length < minimum) {
    skip(`the wallet ${found.wallet} has ${found.entries.length} history entries; this check needs ${minimum}`);
  }
  return found;
}

export const historyChecks: Check[] = [
  {
    id: 'history.entries',
    section: '2.4',
    level: 'MUST',
    title: 'POST /Account/gethistory answers {transactions} of {signature, slot, blockTime}',
    async run(ctx) {
      const { wallet, entries } = await enoughHistory(ctx, 1);
      const problems = entryProblems(entries);
      ensure(problems.length === 0, problems.slice(0, 5).join('; '));
      return `${entries.length} entries for ${wallet}`;
    },
  },
  {
    id: 'history.paging',
    section: '4.1.1',
    level: 'MUST',
    title: 'Pages 1..n of a small PageSize join up to the one big page: no duplicates, no gaps',
    async run(ctx) {
      const { wallet, entries: big } = await enoughHistory(ctx, 2);
      // Page through at most PAGED entries; when that is all of them (the big page is not cut
      // off by its size), the page after the last must also be empty.
      const covered = Math.min(big.length, PAGED);
      const complete = covered === big.length && big.length < BIG_PAGE;
      const pageSize = covered >= 4 ? 2 : 1;
      const pages = Math.ceil(covered / pageSize);
      const joined: string[] = [];
      for (let page = 1; page <= pages + (complete ? 1 : 0); page++) {
        const entries = await ctx.history(wallet, { PageNumber: page, PageSize: pageSize });
        if (page <= pages) ensure(entries.length <= pageSize, `page ${page} of PageSize ${pageSize} has ${entries.length} entries`);
        else ensure(entries.length === 0, `page ${page} is past the ${big.length} entries but has ${entries.length}`);
        joined.push(...entries.map((e) => e.signature));
      }
      const again = await ctx.history(wallet, { PageSize: BIG_PAGE });
      if (
        show(
          again.map((e) => e.signature),
          100_000,
        ) !==
        show(
          big.map((e) => e.signature),
          100_000,
        )
      ) {
        skip(`the history of ${wallet} changed while it was paged; it cannot be compared`);
      }
      const expected = big.slice(0, pages * pageSize).map((e) => e.signature);
      const duplicates = joined.filter((s, i) => joined.indexOf(s) !== i);
      ensure(duplicates.length === 0, `duplicated across pages: ${[...new Set(duplicates)].join(', ')}`);
      const gaps = expected.filter((s) => !joined.includes(s));
      ensure(gaps.length === 0, `in the big page but on no small page: ${gaps.join(', ')}`);
      const extra = joined.filter((s) => !expected.includes(s));
      ensure(extra.length === 0, `on small pages but not in the big page: ${extra.join(', ')}`);
      ensure(show(joined, 100_000) === show(expected, 100_000), 'the pages hold the same entries as the big page, in another order');
      return `${complete ? `all ${big.length}` : `the newest ${expected.length} of ${big.length}+`} entries, ${pages} pages of ${pageSize}`;
    },
  },
  {
    id: 'history.newest-first',
    section: '4.1.1',
    level: 'SHOULD',
    choice: '#/paths/~1Account~1gethistory/post',
    title: 'History entries come newest first (slot and blockTime never increase)',
    async run(ctx) {
      const { entries } = await enoughHistory(ctx, 2);
      for (let i = 1; i < entries.length; i++) {
        const [a, b] = [entries[i - 1]!, entries[i]!];
        ensure(
          b.slot <= a.slot && b.blockTime <= a.blockTime,
          `entry ${i} (slot ${b.slot}, blockTime ${b.blockTime}) is newer than entry ${i - 1} (slot ${a.slot}, blockTime ${a.blockTime})`,
        );
      }
    },
  },
  {
    id: 'history.wallet-required',
    section: '4.1.1',
    level: 'MUST',
    title: 'POST /Account/gethistory without WalletAddress is refused',
    async run(ctx) {
      const res = await ctx.client.request({ method: 'POST', path: '/Account/gethistory', query: { PageSize: 1 } });
      ensure(res.status >= 400 && res.status < 500, `not refused with a 4xx: ${describeResponse(res)}`);
      return describeResponse(res);
    },
  },
  {
    id: 'history.mint-filter',
    section: '4.1.1',
    level: 'SHOULD',
    choice: '#/paths/~1Account~1gethistory/post/parameters/3',
    title: "MintAddress keeps the entries touching the mint's token accounts, and only them",
    async run(ctx) {
      const { wallet, entries } = await enoughHistory(ctx, 1);
      const funding = await ctx.need(ctx.funding(), 'the mint of the relay scenario');
      const filtered = await ctx.history(wallet, { PageSize: BIG_PAGE, MintAddress: funding.mint.toBase58() });
      ensure(filtered.length > 0, `no entry with MintAddress ${funding.mint.toBase58()}, though the wallet's token account of that mint has history`);
      const all = new Set(entries.map((e) => e.signature));
      const foreign = filtered.filter((e) => !all.has(e.signature));
      ensure(foreign.length === 0, `filtered entries missing from the unfiltered history: ${foreign.map((e) => e.signature).join(', ')}`);
      const other = await ctx.history(wallet, { PageSize: BIG_PAGE, MintAddress: Keypair.generate().publicKey.toBase58() });
      ensure(other.length === 0, `a mint the wallet never held still matches ${other.length} entries`);
    },
  },
  {
    id: 'history.limit',
    section: '4.1.1',
    level: 'SHOULD',
    choice: '#/paths/~1Account~1gethistory/post/parameters/4',
    title: 'Limit caps the number of entries returned',
    async run(ctx) {
      const { wallet, entries } = await enoughHistory(ctx, 2);
      const limited = await ctx.history(wallet, { PageSize: BIG_PAGE, Limit: 1 });
      ensure(limited.length === 1, `Limit=1 returned ${limited.length} entries`);
      if (limited[0]?.signature !== entries[0]?.signature) fail(`Limit=1 returned ${limited[0]?.signature}, not the newest entry ${entries[0]?.signature}`);
    },
  },
];
