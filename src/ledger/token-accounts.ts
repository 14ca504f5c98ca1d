import { ACCOUNT_SIZE, AccountLayout, MINT_SIZE, MintLayout, TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import type { LedgerAccount } from './engine.ts';
import { addressOf } from '../crypto/base58.ts';

export interface TokenAccountState {
  mint: string;
  owner: string;
  amount: bigint;
  closeAuthority: string | null;
  delegate: string | null;
  delegatedAmount: bigint;
  state: 'uninitialized' | 'initialized' | 'frozen';
  isNative: bigint | null;
  programId: string;
}

export interface MintState {
  decimals: number;
  supply: bigint;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  isInitialized: boolean;
  programId: string;
}

export function isTokenProgram(owner: PublicKey): boolean {
  return owner.equals(TOKEN_PROGRAM_ID) || owner.equals(TOKEN_2022_PROGRAM_ID);
}

const STATES = ['uninitialized', 'initialized', 'frozen'] as const;

/** Decodes an SPL Token (or Token-2022 base) account, or returns null for anything else. */
export function decodeTokenAccount(account: LedgerAccount | null): TokenAccountState | null {
  if (!account || !isTokenProgram(account.owner) || account.data.length < ACCOUNT_SIZE) return null;
  if (account.owner.equals(TOKEN_PROGRAM_ID) && account.data.length !== ACCOUNT_SIZE) return null;
  const raw = AccountLayout.decode(account.data.subarray(0, ACCOUNT_SIZE));
  if (raw.state === 0) return null;
  return {
    mint: addressOf(raw.mint),
    owner: addressOf(raw.owner),
    amount: raw.amount,
    closeAuthority: raw.closeAuthorityOption ? addressOf(raw.closeAuthority) : null,
    delegate: raw.delegateOption ? addressOf(raw.delegate) : null,
    delegatedAmount: raw.delegatedAmount,
    state: STATES[raw.state] ?? 'initialized',
    isNative: raw.isNativeOption ? raw.isNative : null,
    programId: addressOf(account.owner),
  };
}

export function decodeMint(account: LedgerAccount | null): MintState | null {
  if (!account || !isTokenProgram(account.owner) || account.data.length < MINT_SIZE) return null;
  if (account.owner.equals(TOKEN_PROGRAM_ID) && account.data.length !== MINT_SIZE) return null;
  const raw = MintLayout.decode(account.data.subarray(0, MINT_SIZE));
  if (!raw.isInitialized) return null;
  return {
    decimals: raw.decimals,
    supply: raw.supply,
    mintAuthority: raw.mintAuthorityOption ? addressOf(raw.mintAuthority) : null,
    freezeAuthority: raw.freezeAuthorityOption ? addressOf(raw.freezeAuthority) : null,
    isInitialized: true,
    programId: addressOf(account.owner),
  };
}

export function encodeMint(state: { decimals: number; supply: bigint; mintAuthority: PublicKey | null; freezeAuthority?: PublicKey | null }): Uint8Array {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: state.mintAuthority ? 1 : 0,
      mintAuthority: state.mintAuthority ?? PublicKey.default,
      supply: state.supply,
      decimals: state.decimals,
      isInitialized: true,
      freezeAuthorityOption: state.freezeAuthority ? 1 : 0,
      freezeAuthority: state.freezeAuthority ?? PublicKey.default,
    },
    data,
  );
  return data;
}

export function encodeTokenAccount(state: { mint: PublicKey; owner: PublicKey; amount: bigint; closeAuthority?: PublicKey | null }): Uint8Array {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint: state.mint,
      owner: state.owner,
      amount: state.amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: 1,
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: state.closeAuthority ? 1 : 0,
      closeAuthority: state.closeAuthority ?? PublicKey.default,
    },
    data,
  );
  return data;
}

/** `amount` in base units as a decimal string with `decimals` places, trailing zeros trimmed. */
export function toUiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
