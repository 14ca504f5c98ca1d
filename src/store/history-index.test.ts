import { beforeAll, describe, expect, it } from 'vitest';
import { HistoryIndex } from './history-index.ts';

const entry = (slot: number) => ({ signature: `sig${slot}`, slot, blockTime: 1000 + slot, err: null, memo: null });

describe('HistoryIndex', () => {
  const index = new HistoryIndex();
  beforeAll(async () => {
    for (let slot = 1; slot <= 10; slot += 1) {
      await index.add(entry(slot), ['wallet', slot % 2 ? 'odd' : 'even'], slot % 3 === 0 ? [['wallet', 'MINT']] : []);
    }
  });

  it('keeps the entries in an @msw/data collection, and dumps them with their keys in slot order', () => {
    expect(index.collection.count()).toBe(10);
    const dump = index.dump();
    expect(dump.map((item) => item.entry.slot)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(dump[2]!.keys).toEqual(['wallet', 'odd', 'wallet|MINT']);
  });

  it('lists newest first, pages with offset and limit, without gaps or duplicates', () => {
    expect(index.query('wallet', { limit: 3 }).map((e) => e.slot)).toEqual([10, 9, 8]);
    const pages = [0, 3, 6, 9].map((offset) => index.query('wallet', { offset, limit: 3 }).map((e) => e.slot));
    expect(pages.flat()).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(index.query('wallet', { offset: 20, limit: 3 })).toEqual([]);
  });

  it('honours before and until, like getSignaturesForAddress', () => {
    expect(index.query('wallet', { before: 'sig5', limit: 10 }).map((e) => e.slot)).toEqual([4, 3, 2, 1]);
    expect(index.query('wallet', { until: 'sig7', limit: 10 }).map((e) => e.slot)).toEqual([10, 9, 8]);
    expect(index.query('wallet', { before: 'sig9', until: 'sig5', limit: 10 }).map((e) => e.slot)).toEqual([8, 7, 6]);
    expect(index.query('wallet', { before: 'unknown', limit: 10 })).toEqual([]);
  });

  it('filters by mint and keeps addresses apart', () => {
    expect(index.query('wallet', { mint: 'MINT', limit: 10 }).map((e) => e.slot)).toEqual([9, 6, 3]);
    expect(index.query('odd', { limit: 10 }).map((e) => e.slot)).toEqual([9, 7, 5, 3, 1]);
    expect(index.query('nobody', { limit: 10 })).toEqual([]);
    expect(index.count('wallet')).toBe(10);
  });
});
