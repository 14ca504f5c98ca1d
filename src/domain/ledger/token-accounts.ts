import { ACCOUNT_SIZE, MINT_SIZE, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './spl-token.ts';
import type { PublicKey } from '@solana/web3.js';
import type { LedgerAccount } from './engine.ts';
import { addressAt, addressOf } from '../../base/crypto/key-cache.ts';

export interface TokenAccountState {
  mint: string;
  owner: string;
  amount: bigint;
  closeAuthority: string | null;
  delegate: string | null;
  delegatedAmount: bigint;
  /** Never uninitialized: such an account decodes as no token account (null), as the validator's unpack refuses it. */
  state: 'initialized' | 'frozen';
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

// The layouts are read by offset rather than with spl-token's AccountLayout/MintLayout: those make
// a web3.js PublicKey (through bn.js) for every key field, and the ledger decodes every token
// account of every transaction twice (pre and post balances) (BENCHMARKS.md, "Measured reasons"). The offsets are SPL
// Token's (token-accounts.test.ts checks them against the layouts).
const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);

/** Token-2022's account-type byte, after the 165-byte base, in data that carries extensions. */
const ACCOUNT_TYPE_OFFSET = ACCOUNT_SIZE;
const ACCOUNT_TYPE = { mint: 1, account: 2 } as const;
/** A multisig's size: data of exactly this size is one, not an account with extensions (as the validator reads it). */
export const MULTISIG_SIZE = 355;

/** What Token-2022 data holds, as the validator decides it: by its size, or past 165 bytes by its account-type byte. */
function kindOf(data: Uint8Array): 'account' | 'mint' | 'multisig' | null {
  if (data.length === ACCOUNT_SIZE) return 'account';
  if (data.length === MINT_SIZE) return 'mint';
  if (data.length === MULTISIG_SIZE) return 'multisig';
  if (data.length <= ACCOUNT_SIZE) return null;
  const type = data[ACCOUNT_TYPE_OFFSET];
  return type === ACCOUNT_TYPE.account ? 'account' : type === ACCOUNT_TYPE.mint ? 'mint' : null;
}

/** Decodes an SPL Token (or Token-2022 base) account, or returns null for anything else. */
export function decodeTokenAccount(account: LedgerAccount | null): TokenAccountState | null {
  if (!account || !isTokenProgram(account.owner) || account.data.length < ACCOUNT_SIZE) return null;
  if (account.owner.equals(TOKEN_PROGRAM_ID) ? account.data.length !== ACCOUNT_SIZE : kindOf(account.data) !== 'account') return null;
  const { data } = account;
  const state = data[108]!;
  if (state === 0) return null;
  const fields = view(data);
  return {
    mint: addressAt(data, 0),
    owner: addressAt(data, 32),
    amount: fields.getBigUint64(64, true),
    closeAuthority: fields.getUint32(129, true) !== 0 ? addressAt(data, 133) : null,
    delegate: fields.getUint32(72, true) !== 0 ? addressAt(data, 76) : null,
    delegatedAmount: fields.getBigUint64(121, true),
    state: state === 2 ? 'frozen' : 'initialized',
    isNative: fields.getUint32(109, true) !== 0 ? fields.getBigUint64(113, true) : null,
    programId: addressOf(account.owner),
  };
}

export function decodeMint(account: LedgerAccount | null): MintState | null {
  if (!account || !isTokenProgram(account.owner) || account.data.length < MINT_SIZE) return null;
  if (account.owner.equals(TOKEN_PROGRAM_ID) ? account.data.length !== MINT_SIZE : kindOf(account.data) !== 'mint') return null;
  const { data } = account;
  if (data[45] === 0) return null;
  const fields = view(data);
  return {
    decimals: data[44]!,
    supply: fields.getBigUint64(36, true),
    mintAuthority: fields.getUint32(0, true) !== 0 ? addressAt(data, 4) : null,
    freezeAuthority: fields.getUint32(46, true) !== 0 ? addressAt(data, 50) : null,
    isInitialized: true,
    programId: addressOf(account.owner),
  };
}

/** A mint's 82 bytes, as SPL Token lays them out (held to spl-token's MintLayout in spl-token.test.ts). */
export function encodeMint(state: { decimals: number; supply: bigint; mintAuthority: PublicKey | null; freezeAuthority?: PublicKey | null }): Uint8Array {
  const data = Buffer.alloc(MINT_SIZE);
  const fields = new DataView(data.buffer, data.byteOffset, data.length);
  if (state.mintAuthority) {
    fields.setUint32(0, 1, true);
    data.set(state.mintAuthority.toBytes(), 4);
  }
  fields.setBigUint64(36, state.supply, true);
  data[44] = state.decimals;
  data[45] = 1;
  if (state.freezeAuthority) {
    fields.setUint32(46, 1, true);
    data.set(state.freezeAuthority.toBytes(), 50);
  }
  return data;
}

/** An initialized token account's 165 bytes, no delegate, not native (held to spl-token's AccountLayout in spl-token.test.ts). */
export function encodeTokenAccount(state: { mint: PublicKey; owner: PublicKey; amount: bigint; closeAuthority?: PublicKey | null }): Uint8Array {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  const fields = new DataView(data.buffer, data.byteOffset, data.length);
  data.set(state.mint.toBytes(), 0);
  data.set(state.owner.toBytes(), 32);
  fields.setBigUint64(64, state.amount, true);
  data[108] = 1;
  if (state.closeAuthority) {
    fields.setUint32(129, 1, true);
    data.set(state.closeAuthority.toBytes(), 133);
  }
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
