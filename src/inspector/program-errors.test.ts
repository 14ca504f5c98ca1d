import { describe, expect, it } from 'vitest';
import { PROGRAMS } from '../relay/programs.ts';
import { describeLedgerError } from './program-errors.ts';

const token = { programId: PROGRAMS.token.toBase58(), program: 'spl-token', parsed: { type: 'transferChecked', info: {} } };
const memo = { programId: PROGRAMS.memo.toBase58(), program: 'spl-memo', parsed: 'hello' };
const system = { programId: PROGRAMS.system.toBase58(), program: 'system', parsed: { type: 'createAccount', info: {} } };
const ata = { programId: PROGRAMS.associatedToken.toBase58(), program: 'spl-associated-token-account', parsed: { type: 'createIdempotent', info: {} } };
const token2022 = { programId: PROGRAMS.token2022.toBase58(), program: 'spl-token-2022', parsed: { type: 'transfer', info: {} } };

describe('describeLedgerError', () => {
  it('names a program error by the program that failed, counting instructions from 1', () => {
    expect(describeLedgerError({ InstructionError: [0, { Custom: 1 }] }, [token])).toBe('instruction 1 (spl-token transferChecked): InsufficientFunds');
    expect(describeLedgerError({ InstructionError: [1, { Custom: 1 }] }, [memo, token])).toBe('instruction 2 (spl-token transferChecked): InsufficientFunds');
    expect(describeLedgerError({ InstructionError: [0, { Custom: 0 }] }, [system])).toBe('instruction 1 (system createAccount): AccountAlreadyInUse');
    expect(describeLedgerError({ InstructionError: [0, { Custom: 0 }] }, [ata])).toBe(
      'instruction 1 (spl-associated-token-account createIdempotent): InvalidOwner',
    );
    expect(describeLedgerError({ InstructionError: [0, { Custom: 17 }] }, [token2022])).toBe('instruction 1 (spl-token-2022 transfer): AccountFrozen');
  });

  it('says the number of a code no table names, and the runtime errors by name', () => {
    expect(describeLedgerError({ InstructionError: [0, { Custom: 36 }] }, [token2022])).toBe(
      'instruction 1 (spl-token-2022 transfer): custom program error 36 (0x24)',
    );
    expect(describeLedgerError({ InstructionError: [0, 'InvalidAccountData'] }, [token])).toBe('instruction 1 (spl-token transferChecked): InvalidAccountData');
    expect(describeLedgerError({ InstructionError: [0, { BorshIoError: 'Unknown' }] }, [])).toBe('instruction 1: BorshIoError Unknown');
    expect(describeLedgerError('InsufficientFundsForFee', [])).toBe('InsufficientFundsForFee');
    expect(describeLedgerError({ InsufficientFundsForRent: { account_index: 2 } }, [])).toBe('InsufficientFundsForRent {"account_index":2}');
  });
});
