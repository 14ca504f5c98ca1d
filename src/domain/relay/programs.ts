import { ASSOCIATED_TOKEN_PROGRAM_ID, NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../ledger/spl-token.ts';
import { ComputeBudgetProgram, PublicKey, SystemProgram } from '@solana/web3.js';

export const PROGRAMS = {
  system: SystemProgram.programId,
  token: TOKEN_PROGRAM_ID,
  token2022: TOKEN_2022_PROGRAM_ID,
  associatedToken: ASSOCIATED_TOKEN_PROGRAM_ID,
  computeBudget: ComputeBudgetProgram.programId,
  memoV1: new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo'),
  memo: new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'),
} as const;

/** The wrapped-SOL mint. */
export const NATIVE_MINT_ADDRESS: PublicKey = NATIVE_MINT;

/** Associated Token Account instruction tags (first data byte; empty data is Create). */
export const ASSOCIATED_TOKEN_INSTRUCTION = {
  Create: 0,
  CreateIdempotent: 1,
  RecoverNested: 2,
} as const;

/** SPL Token instruction tags (first data byte). */
export const TOKEN_INSTRUCTION = {
  InitializeMint: 0,
  InitializeAccount: 1,
  InitializeMultisig: 2,
  Transfer: 3,
  Approve: 4,
  Revoke: 5,
  SetAuthority: 6,
  MintTo: 7,
  Burn: 8,
  CloseAccount: 9,
  FreezeAccount: 10,
  ThawAccount: 11,
  TransferChecked: 12,
  ApproveChecked: 13,
  MintToChecked: 14,
  BurnChecked: 15,
  InitializeAccount2: 16,
  SyncNative: 17,
  InitializeAccount3: 18,
} as const;

/** SetAuthority's authority type for the close authority. */
export const AUTHORITY_TYPE_CLOSE_ACCOUNT = 3;

/** SystemProgram instruction tags (u32 little-endian). */
export const SYSTEM_INSTRUCTION = {
  CreateAccount: 0,
  Assign: 1,
  Transfer: 2,
  CreateAccountWithSeed: 3,
  AdvanceNonceAccount: 4,
  WithdrawNonceAccount: 5,
  InitializeNonceAccount: 6,
  AuthorizeNonceAccount: 7,
  Allocate: 8,
  AllocateWithSeed: 9,
  AssignWithSeed: 10,
  TransferWithSeed: 11,
  UpgradeNonceAccount: 12,
} as const;
