import { describe, expect, it } from 'vitest';
import { PROGRAMS } from '../../domain/relay/programs.ts';
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

  it('names an app program and its custom errors from its IDL, and says the number of a code the IDL does not list', () => {
    const programId = 'compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq';
    const errors = new Map([[6009, 'InvalidAuthority']]);
    const app = {
      errorName: (id: string, code: number) => (id === programId ? errors.get(code) : undefined),
      programName: (id: string) => (id === programId ? 'account_compression' : undefined),
      decodeInstruction: () => undefined,
    };
    const call = { programId };
    expect(describeLedgerError({ InstructionError: [0, { Custom: 6009 }] }, [call], app)).toBe('instruction 1 (account_compression): InvalidAuthority');
    expect(describeLedgerError({ InstructionError: [0, { Custom: 6100 }] }, [call], app)).toBe(
      'instruction 1 (account_compression): custom program error 6100 (0x17d4)',
    );
    // Without its IDL, the program is its address and the code a number.
    expect(describeLedgerError({ InstructionError: [0, { Custom: 6009 }] }, [call])).toBe(`instruction 1 (${programId}): custom program error 6009 (0x1779)`);
    // An IDL never renames the programs the emulator ships.
    const claimsToken = { errorName: () => 'NotThis', programName: () => 'not-this', decodeInstruction: () => ({ name: 'notThis', args: [], accounts: [] }) };
    expect(describeLedgerError({ InstructionError: [0, { Custom: 1 }] }, [token], claimsToken)).toBe(
      'instruction 1 (spl-token transferChecked): InsufficientFunds',
    );
  });
});
