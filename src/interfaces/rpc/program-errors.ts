import { VersionedTransaction } from '@solana/web3.js';
import { decodeBase58 } from '../../base/crypto/base58.ts';
import type { IdlInstruction } from '../../domain/ledger/idl-instructions.ts';
import { PROGRAMS } from '../../domain/relay/programs.ts';
import { encodeTransaction } from './transaction-json.ts';

/**
 * Custom error codes of the programs the emulator runs, by code. Names are those of the programs'
 * own IDLs, as @solana-program/token 0.16, @solana-program/token-2022 0.6 and @solana-program/system
 * 0.14 generate them. Token-2022 shares SPL Token's codes 0–19; its IDL names none past them, so a
 * higher Token-2022 code is shown by number.
 */
const TOKEN_ERRORS = [
  'NotRentExempt',
  'InsufficientFunds',
  'InvalidMint',
  'MintMismatch',
  'OwnerMismatch',
  'FixedSupply',
  'AlreadyInUse',
  'InvalidNumberOfProvidedSigners',
  'InvalidNumberOfRequiredSigners',
  'UninitializedState',
  'NativeNotSupported',
  'NonNativeHasBalance',
  'InvalidInstruction',
  'InvalidState',
  'Overflow',
  'AuthorityTypeNotSupported',
  'MintCannotFreeze',
  'AccountFrozen',
  'MintDecimalsMismatch',
  'NonNativeNotSupported',
] as const;
const SYSTEM_ERRORS = [
  'AccountAlreadyInUse',
  'ResultWithNegativeLamports',
  'InvalidProgramId',
  'InvalidAccountDataLength',
  'MaxSeedLengthExceeded',
  'AddressWithSeedMismatch',
  'NonceNoRecentBlockhashes',
  'NonceBlockhashNotExpired',
  'NonceUnexpectedBlockhashValue',
] as const;
const ASSOCIATED_TOKEN_ERRORS = ['InvalidOwner'] as const;

const CUSTOM_ERRORS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  [PROGRAMS.system.toBase58(), SYSTEM_ERRORS],
  [PROGRAMS.token.toBase58(), TOKEN_ERRORS],
  [PROGRAMS.token2022.toBase58(), TOKEN_ERRORS],
  [PROGRAMS.associatedToken.toBase58(), ASSOCIATED_TOKEN_ERRORS],
]);

/** An instruction as the jsonParsed rendering gives it: its program's name and the parsed type, when decoded. */
export interface NamedInstruction {
  programId: string;
  program?: string;
  parsed?: unknown;
  /** Not parsed: its accounts and data (base58), as jsonParsed gives them. */
  accounts?: string[];
  data?: string;
}

/**
 * A transaction's instructions as jsonParsed renders them (program names, parsed types), for naming
 * its errors; none when the bytes are not one transaction.
 */
export function namedInstructions(wire: Uint8Array): NamedInstruction[] {
  try {
    const parsed = encodeTransaction(VersionedTransaction.deserialize(wire), wire, 'jsonParsed') as { message?: { instructions?: NamedInstruction[] } };
    return parsed.message?.instructions ?? [];
  } catch {
    return []; // Not one transaction, or an index out of range.
  }
}

/** The app's programs' own names, from the IDLs given for them (LoadedPrograms answers these). */
export interface AppProgramNames {
  errorName(programId: string, code: number): string | undefined;
  programName(programId: string): string | undefined;
  decodeInstruction(programId: string, data: Uint8Array, accounts: readonly string[]): IdlInstruction | undefined;
}

export const NO_APP_PROGRAMS: AppProgramNames = { errorName: () => undefined, programName: () => undefined, decodeInstruction: () => undefined };

/**
 * A ledger error in words: `instruction 1 (spl-token transferChecked): InsufficientFunds` for
 * `{"InstructionError":[0,{"Custom":1}]}` (instructions counted from 1, as people count); the
 * runtime's own errors by their names (`InsufficientFundsForFee`, `InvalidAccountData`); an app
 * program's custom errors by its IDL's names (`instruction 1 (account_compression): InvalidAuthority`).
 * The raw form stays beside it wherever it is shown.
 */
export function describeLedgerError(err: unknown, instructions: readonly NamedInstruction[], app: AppProgramNames = NO_APP_PROGRAMS): string {
  if (typeof err === 'string') return err;
  if (!isObject(err)) return JSON.stringify(err);
  const instructionError = err.InstructionError;
  if (Array.isArray(instructionError) && typeof instructionError[0] === 'number') {
    const [index, detail] = instructionError as [number, unknown];
    const ix = instructions[index];
    const where = `instruction ${index + 1}${ix ? ` (${instructionName(ix, app)})` : ''}`;
    return `${where}: ${detailName(detail, ix?.programId, app)}`;
  }
  const [name, value] = Object.entries(err)[0] ?? ['', undefined];
  return value === undefined ? JSON.stringify(err) : `${name} ${JSON.stringify(value)}`;
}

function instructionName(ix: NamedInstruction, app: AppProgramNames): string {
  const type =
    isObject(ix.parsed) && typeof ix.parsed.type === 'string'
      ? ix.parsed.type
      : typeof ix.parsed === 'string'
        ? 'memo'
        : ix.data === undefined
          ? null
          : (app.decodeInstruction(ix.programId, decodeBase58(ix.data) ?? new Uint8Array(), ix.accounts ?? [])?.name ?? null);
  const program = ix.program ?? app.programName(ix.programId) ?? ix.programId;
  return type ? `${program} ${type}` : program;
}

function detailName(detail: unknown, programId: string | undefined, app: AppProgramNames): string {
  if (typeof detail === 'string') return detail;
  if (isObject(detail) && typeof detail.Custom === 'number') {
    const name = programId ? (CUSTOM_ERRORS.get(programId)?.[detail.Custom] ?? app.errorName(programId, detail.Custom)) : undefined;
    return name ?? `custom program error ${detail.Custom} (0x${detail.Custom.toString(16)})`;
  }
  if (isObject(detail)) {
    const [name, value] = Object.entries(detail)[0] ?? ['', undefined];
    if (name) return `${name}${value === undefined || value === null ? '' : ` ${typeof value === 'string' ? value : JSON.stringify(value)}`}`;
  }
  return JSON.stringify(detail);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
