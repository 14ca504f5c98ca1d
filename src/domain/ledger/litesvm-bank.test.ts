import { describe, expect, it } from 'vitest';
import { releaseBank, takeBank } from './litesvm-bank.ts';

describe('the pool of closed engines’ LiteSVM banks', () => {
  it('gives a bank back only for the genesis it holds, keeps at most four, and lets the one idle longest go first', () => {
    const geneses = ['a', 'b', 'c', 'd', 'e'];
    const taken = geneses.map((genesis) => ({ genesis, ...takeBank(genesis) }));
    expect(taken.every(({ warm }) => !warm)).toBe(true);
    for (const { genesis, svm } of taken) releaseBank(svm, [], genesis);
    // 'a' was idle longest: let go to make room for 'e'.
    expect(takeBank('a').warm).toBe(false);
    expect(takeBank('z').warm).toBe(false);
    for (const { genesis, svm } of taken.slice(1)) expect(takeBank(genesis)).toEqual({ svm, warm: true });
    // Taken, they are idle no more.
    expect(takeBank('b').warm).toBe(false);
  });
});
