import { describe, expect, it } from 'vitest';
import type { Submission } from '../../domain/store/submissions.ts';
import { ledgerFailure, legacyErrorMessage, legacyErrorType } from './legacy-errors.ts';

const record = (patch: Partial<Submission>): Submission => ({
  signature: 'sig',
  origin: 'legacy',
  status: 'failed',
  commitment: null,
  message: '',
  wire: '',
  receivedAt: '2026-01-01T00:00:00.000Z',
  ledger: null,
  injectedError: null,
  policyChecked: true,
  strictBreaks: [],
  sponsorExposure: 0n,
  label: null,
  payments: [],
  ...patch,
});

describe('legacy error classification', () => {
  it('maps ledger errors to the legacy types', () => {
    expect(legacyErrorType('BlockhashNotFound')).toBe('BadNonce');
    expect(legacyErrorType({ InstructionError: [2, 'InvalidAccountData'] })).toBe('InvalidAccount');
    expect(legacyErrorType({ InstructionError: [0, { Custom: 1 }] })).toBe('Unknown');
    expect(legacyErrorType('InsufficientFundsForFee')).toBe('Unknown');
  });

  it('names the failing instruction and the SPL Token error', () => {
    expect(legacyErrorMessage({ InstructionError: [1, { Custom: 1 }] })).toBe('Error processing Instruction 1: Insufficient funds.');
    expect(legacyErrorMessage({ InstructionError: [0, { Custom: 99 }] })).toBe('Error processing Instruction 0: custom program error: 0x63');
    expect(legacyErrorMessage({ InstructionError: [3, 'InvalidAccountData'] })).toBe('Error processing Instruction 3: invalid account data for instruction.');
    expect(legacyErrorMessage('BlockhashNotFound')).toBe('Blockhash not found.');
    expect(legacyErrorMessage({ InsufficientFundsForRent: { account_index: 2 } })).toBe('Transaction failed: {"InsufficientFundsForRent":{"account_index":2}}');
  });

  it('reads a ledger failure from the relay record: error, logs and instruction', () => {
    const failed = record({
      ledger: {
        err: { InstructionError: [1, 'InvalidAccountData'] },
        logs: ['Program log: Error: InvalidAccountData'],
      } as unknown as Submission['ledger'],
    });
    expect(ledgerFailure(failed)).toEqual({
      type: 'InvalidAccount',
      message: 'Error processing Instruction 1: invalid account data for instruction.',
      logs: ['Program log: Error: InvalidAccountData'],
      instruction: 1,
    });
  });

  it('classifies an injected fault by its runtime text, and keeps text it cannot parse', () => {
    expect(ledgerFailure(record({ injectedError: 'Blockhash not found' }))).toMatchObject({ type: 'BadNonce', instruction: null });
    expect(ledgerFailure(record({ injectedError: 'Error processing Instruction 0: invalid account data for instruction' }))).toMatchObject({
      type: 'InvalidAccount',
      instruction: 0,
    });
    expect(ledgerFailure(record({ injectedError: 'ledger failure: engine stopped' }))).toEqual({
      type: 'Unknown',
      message: 'ledger failure: engine stopped',
      logs: [],
      instruction: null,
    });
  });
});
