import { beforeAll, describe, expect, it } from 'vitest';
import { HistoryIndex } from './history-index.ts';

const entry = (slot: number, signature = `sig${slot}`) => ({ signature, slot, blockTime: 1000 + slot, err: null, memo: null });

describe('HistoryIndex', () => {
  const index = new HistoryIndex();
  beforeAll(() => {
    for (let slot = 1; slot <= 10; slot += 1) {
      index.add(entry(slot), ['wallet', slot % 2 ? 'odd' : 'even'], slot % 3 === 0 ? [['wallet', 'MINT']] : []);
    }
  });

  it('dumps every entry with its keys in filing order', () => {
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

  it('keeps several transactions of one slot in the order they ran, and pages through them by signature', () => {
    const crowded = new HistoryIndex();
    crowded.add(entry(1, 'a'), ['wallet']);
    for (const signature of ['b', 'c', 'd']) crowded.add(entry(2, signature), ['wallet']);
    crowded.add(entry(3, 'e'), ['wallet']);
    const signatures = (query: Parameters<HistoryIndex['query']>[1]) => crowded.query('wallet', query).map((e) => e.signature);
    expect(signatures({ limit: 10 })).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(signatures({ before: 'c', limit: 10 })).toEqual(['b', 'a']);
    expect(signatures({ until: 'c', limit: 10 })).toEqual(['e', 'd']);
    expect(signatures({ before: 'd', until: 'b', limit: 10 })).toEqual(['c']);
    expect(signatures({ offset: 1, limit: 2 })).toEqual(['d', 'c']);
    expect(crowded.dump().map((item) => item.entry.signature)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
