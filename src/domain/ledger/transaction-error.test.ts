import { describe, expect, it } from 'vitest';
import { failedInstructionIndex, landedInBlock, parseTransactionError } from './transaction-error.ts';

describe('parseTransactionError', () => {
  it.each([
    ['Blockhash not found', 'BlockhashNotFound'],
    ['Error processing Instruction 1: custom program error: 0x1', { InstructionError: [1, { Custom: 1 }] }],
    ['Error processing Instruction 0: invalid account data for instruction', { InstructionError: [0, 'InvalidAccountData'] }],
    ['Transaction results in an account (2) with insufficient funds for rent', { InsufficientFundsForRent: { account_index: 2 } }],
    ['something new', { Unknown: 'something new' }],
  ])('%s', (text, expected) => {
    expect(parseTransactionError(text)).toEqual(expected);
  });

  it('finds the failing instruction', () => {
    expect(failedInstructionIndex({ InstructionError: [3, { Custom: 4 }] })).toBe(3);
    expect(failedInstructionIndex('BlockhashNotFound')).toBeNull();
    expect(failedInstructionIndex(null)).toBeNull();
  });
});

describe('landedInBlock', () => {
  const run = (err: Parameters<typeof landedInBlock>[0]['err'], fee: bigint, pre: bigint, post: bigint) =>
    landedInBlock({ err, fee, preBalances: [pre, 1n], postBalances: [post, 1n] });

  it('lands every success', () => {
    expect(run(null, 5000n, 10_000n, 10_000n)).toBe(true);
  });
  it('lands a failure that took the fee, and not one that took nothing', () => {
    expect(run({ InstructionError: [0, { Custom: 1 }] }, 5000n, 10_000n, 5_000n)).toBe(true);
    expect(run('ProgramAccountNotFound', 5000n, 10_000n, 5_000n)).toBe(true);
    expect(run('AccountNotFound', 5000n, 0n, 0n)).toBe(false);
    expect(run('InsufficientFundsForFee', 5000n, 4_000n, 4_000n)).toBe(false);
  });
  it('with no fee to tell by, lands errors with a variant body only', () => {
    expect(run({ InstructionError: [0, 'InvalidAccountData'] }, 0n, 10n, 10n)).toBe(true);
    expect(run('BlockhashNotFound', 0n, 10n, 10n)).toBe(false);
  });
});
