import { describe, expect, it } from 'vitest';
import { BlockhashRegistry, MAX_PROCESSING_AGE } from './blockhash-registry.ts';

const ISSUED_AT = 1_000n;

describe('BlockhashRegistry', () => {
  it('is Solana’s window: lastValidBlockHeight is the issue height + 150, valid at 149 and 150 blocks of age, not at 151', () => {
    const registry = new BlockhashRegistry();
    expect(registry.issue('hash', ISSUED_AT)).toBe(1_150n);
    expect(registry.isValid('hash', ISSUED_AT)).toBe(true);
    expect(registry.isValid('hash', ISSUED_AT + 149n)).toBe(true);
    expect(registry.isValid('hash', ISSUED_AT + 150n)).toBe(true);
    expect(registry.isValid('hash', ISSUED_AT + 151n)).toBe(false);
    expect(MAX_PROCESSING_AGE).toBe(150);
  });

  it('knows only what it handed out, and a second hand-out does not extend a blockhash’s life', () => {
    const registry = new BlockhashRegistry();
    expect(registry.isValid('never-issued', ISSUED_AT)).toBe(false);
    registry.issue('hash', ISSUED_AT);
    expect(registry.issue('hash', ISSUED_AT + 100n)).toBe(1_150n);
    expect(registry.isValid('hash', ISSUED_AT + 151n)).toBe(false);
  });

  it('expires every blockhash on demand, at any age', () => {
    const registry = new BlockhashRegistry();
    registry.issue('old', ISSUED_AT - 10n);
    registry.issue('new', ISSUED_AT);
    registry.expireAll();
    expect(registry.isValid('old', ISSUED_AT)).toBe(false);
    expect(registry.isValid('new', ISSUED_AT)).toBe(false);
    // A blockhash handed out after the expiry is valid again.
    registry.issue('next', ISSUED_AT);
    expect(registry.isValid('next', ISSUED_AT)).toBe(true);
  });

  it('prunes exactly the blockhashes that are no longer valid, so pruning never changes an answer', () => {
    const registry = new BlockhashRegistry();
    registry.issue('older', ISSUED_AT - 1n);
    registry.issue('hash', ISSUED_AT);
    registry.prune(ISSUED_AT + 150n);
    expect(registry.size).toBe(1);
    expect(registry.isValid('hash', ISSUED_AT + 150n)).toBe(true);
    registry.prune(ISSUED_AT + 151n);
    expect(registry.size).toBe(0);
  });
});
