import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { FAKE_API_KEY, FAKE_BASE_URL, fakeConfig, fakeFetch, json, problem, withApiKey } from '../fake-target.test-support.ts';
import { runConformance } from '../run-conformance.ts';

type Bug = 'none' | 'overlapping-pages' | 'skipped-entry' | 'oldest-first' | 'zero-based';

/** Seven entries, newest first, paged like the contract says, with one deliberate bug. */
function historyTarget(bug: Bug, count = 7) {
  const entries = Array.from({ length: count }, (_, i) => ({
    signature: bs58.encode(Buffer.from([...Buffer.alloc(62, 1), i >> 8, i & 255])),
    slot: 1000 - i * 3,
    blockTime: 1_700_000_000 - i * 2,
  }));
  const ordered = bug === 'oldest-first' ? [...entries].reverse() : entries;
  return fakeFetch({
    'GET /api/Transaction/config': withApiKey(() => json(fakeConfig())),
    'POST /api/Account/gethistory': withApiKey((_request, url) => {
      const q = url.searchParams;
      if (!q.get('WalletAddress')) return problem(400, 'INVALID_QUERY');
      const size = Number(q.get('PageSize') ?? 20);
      const page = Number(q.get('PageNumber') ?? (bug === 'zero-based' ? 0 : 1));
      let offset = (page - (bug === 'zero-based' ? 0 : 1)) * size;
      if (bug === 'overlapping-pages' && page > 1) offset -= 1;
      let list = ordered;
      if (bug === 'skipped-entry' && size < count) list = ordered.filter((_, i) => i !== 3);
      const limit = q.get('Limit') === null ? Infinity : Number(q.get('Limit'));
      return json({ transactions: list.slice(0, limit).slice(offset, offset + size) });
    }),
  });
}

async function run(bug: Bug, count?: number) {
  const report = await runConformance({
    baseUrl: FAKE_BASE_URL,
    apiKey: FAKE_API_KEY,
    fetch: historyTarget(bug, count),
    // No mint and no /__emulator routes: no scenario, so the owner's history is read.
    ownerKeypair: Keypair.generate(),
    only: ['history.entries', 'history.paging', 'history.newest-first', 'history.wallet-required', 'history.limit'],
  });
  return Object.fromEntries(report.results.map((r) => [r.id, r]));
}

describe('history checks', () => {
  it('pass for consistent, newest-first paging', async () => {
    const results = await run('none');
    expect(results['history.entries']).toMatchObject({ status: 'pass', reason: expect.stringMatching(/^7 entries for /) });
    expect(results['history.paging']).toMatchObject({ status: 'pass', reason: 'all 7 entries, 4 pages of 2' });
    expect(results['history.newest-first']?.status).toBe('pass');
    expect(results['history.wallet-required']?.status).toBe('pass');
    expect(results['history.limit']?.status).toBe('pass');
  });

  it('page through the newest entries of a busy wallet, whose big page is cut off', async () => {
    const results = await run('none', 130);
    expect(results['history.paging']).toMatchObject({ status: 'pass', reason: 'the newest 12 of 100+ entries, 6 pages of 2' });
    expect((await run('overlapping-pages', 130))['history.paging']?.status).toBe('fail');
  });

  it('catch pages that overlap', async () => {
    const results = await run('overlapping-pages');
    expect(results['history.paging']).toMatchObject({ status: 'fail', level: 'MUST', reason: expect.stringMatching(/^duplicated across pages: /) });
  });

  it('catch an entry that no page holds', async () => {
    const results = await run('skipped-entry');
    expect(results['history.paging']).toMatchObject({ status: 'fail', reason: expect.stringMatching(/^in the big page but on no small page: /) });
  });

  it('catch zero-based pages (page 1 skips the newest entries)', async () => {
    const results = await run('zero-based');
    expect(results['history.paging']).toMatchObject({ status: 'fail', reason: expect.stringMatching(/^in the big page but on no small page: /) });
  });

  it('catch oldest-first order', async () => {
    const results = await run('oldest-first');
    expect(results['history.newest-first']).toMatchObject({
      status: 'fail',
      level: 'SHOULD',
      reason: expect.stringMatching(/^entry 1 .* is newer than entry 0/),
    });
    expect(results['history.paging']?.status).toBe('pass');
  });
});
