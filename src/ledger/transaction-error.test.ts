import { describe, expect, it } from 'vitest';
import { failedInstructionIndex, parseTransactionError } from './transaction-error.ts';

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
