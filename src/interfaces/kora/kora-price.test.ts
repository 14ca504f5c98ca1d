import { describe, expect, it } from 'vitest';
import { lamportsToToken, mockPrice, tokenToLamports, withMargin } from './kora-price.ts';

describe("Kora's price arithmetic (token.rs, price.rs, oracle/utils.rs)", () => {
  it('prices mints as the Mock oracle does', () => {
    expect(mockPrice('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU')).toEqual({ numerator: 1n, denominator: 10_000n });
    expect(mockPrice('So11111111111111111111111111111111111111112')).toEqual({ numerator: 1n, denominator: 1n });
    expect(mockPrice('9BgeTKqmFsPVnfYscfM6NvsgmZxei7XfdciShQ6D3bxJ')).toEqual({ numerator: 1n, denominator: 1_000n });
  });

  it('rounds lamports to tokens up and tokens to lamports down', () => {
    const price = mockPrice('any');
    // 0.001 SOL per token, 6 decimals: one base unit is one lamport.
    expect(lamportsToToken(10_050n, 6, price)).toBe(10_050n);
    expect(tokenToLamports(10_050n, 6, price)).toBe(10_050n);
    // 9 decimals: a thousand base units per lamport; 2 decimals: 1/10,000 of a unit per lamport, rounded up.
    expect(lamportsToToken(5_000n, 9, price)).toBe(5_000_000n);
    expect(lamportsToToken(5_001n, 2, price)).toBe(1n);
    expect(tokenToLamports(1n, 2, price)).toBe(10_000n);
    expect(tokenToLamports(999n, 9, price)).toBe(0n);
  });

  it('adds the margin as the shortest decimal of the number, rounded up', () => {
    expect(withMargin(10_000n, 0)).toBe(10_000n);
    expect(withMargin(10_000n, 0.1)).toBe(11_000n);
    expect(withMargin(10_001n, 0.1)).toBe(11_002n);
    expect(withMargin(5_050n, 1e-7)).toBe(5_051n);
    expect(withMargin(100n, 2)).toBe(300n);
  });
});
