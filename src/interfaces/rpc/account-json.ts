import { parsedSystemAccount } from './parse-system-accounts.ts';
import type { LedgerAccount } from '../../domain/ledger/engine.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import { ACCOUNT_SIZE } from '../../domain/ledger/spl-token.ts';
import { decodeMint, decodeTokenAccount, isTokenProgram, MULTISIG_SIZE, type TokenAccountState } from '../../domain/ledger/token-accounts.ts';
import { JsonRpcError, RPC_ERROR, invalidParams } from './json-rpc-error.ts';
import { describeType, optionalVariant } from './params.ts';
import { uiTokenAmount, type UiTokenAmount } from './ui-token-amount.ts';
import { encodeBase58 } from '../../base/crypto/base58.ts';
import { zstdCompressStreamed } from '../../base/codecs/zstd.ts';
import { parsedNativeAccount } from './parse-native-accounts.ts';

/** Account encodings the RPC names; `binary` is the legacy default (a bare base58 string). */
const ACCOUNT_ENCODINGS = ['binary', 'base58', 'base64', 'jsonParsed', 'base64+zstd'] as const;
export type AccountEncoding = (typeof ACCOUNT_ENCODINGS)[number];

export interface DataSlice {
  offset: number;
  length: number;
}

export interface AccountEncodingOptions {
  encoding: AccountEncoding;
  dataSlice?: DataSlice;
}

/** What the validator reports for a rent-exempt account it made or rewrote: an account's rent epoch unless it came with one (a dump's, genesis's). */
export const RENT_EXEMPT_RENT_EPOCH = 18_446_744_073_709_551_615n;
const MAX_BASE58_BYTES = 128;

/**
 * The most account data one answer carries, counted as stored (after `dataSlice`): 64 MiB, which
 * base64 makes ~85 MiB of JSON. Past it getMultipleAccounts and getProgramAccounts refuse rather
 * than build an answer of gigabytes (x-emulator-choice: a validator bounds getMultipleAccounts by
 * count alone, `--rpc-max-multiple-accounts`, and a scan by `--accounts-index-scan-results-limit-mb`).
 */
export const MAX_ANSWER_DATA_BYTES = 64 * 1024 * 1024;

/** The data bytes `accounts` put in an answer in `encoding` (a `dataSlice` counts its length). */
export function answerDataBytes(accounts: readonly (LedgerAccount | null)[], encoding: AccountEncodingOptions): number {
  let total = 0;
  for (const account of accounts) {
    if (!account) continue;
    const { dataSlice } = encoding;
    total += dataSlice ? Math.max(0, Math.min(dataSlice.length, account.data.length - dataSlice.offset)) : account.data.length;
  }
  return total;
}

/** Reads `encoding` and `dataSlice` from a config, refusing what the validator refuses. */
export function accountEncodingOf(config: Record<string, unknown>, fallback: AccountEncoding): AccountEncodingOptions {
  const encoding = optionalVariant(config, 'encoding', ACCOUNT_ENCODINGS) ?? fallback;
  const dataSlice = dataSliceOf(config.dataSlice);
  if (dataSlice && encoding === 'jsonParsed') {
    throw new JsonRpcError(RPC_ERROR.INVALID_REQUEST, 'Sliced account data can only be encoded using binary (base 58) or base64 encoding.');
  }
  return dataSlice ? { encoding, dataSlice } : { encoding };
}

function dataSliceOf(value: unknown): DataSlice | undefined {
  if (value === undefined || value === null) return undefined;
  const slice = value as Record<string, unknown>;
  if (
    typeof value !== 'object' ||
    !Number.isInteger(slice.offset) ||
    !Number.isInteger(slice.length) ||
    (slice.offset as number) < 0 ||
    (slice.length as number) < 0
  ) {
    throw invalidParams(`invalid type: ${describeType(value)}, expected dataSlice {offset: usize, length: usize}`);
  }
  return { offset: slice.offset as number, length: slice.length as number };
}

/** The validator's `UiAccount` of the account at `address`: `{data, executable, lamports, owner, rentEpoch, space}`. */
export async function accountJson(address: string, account: LedgerAccount, options: AccountEncodingOptions, ledger: Ledger): Promise<Record<string, unknown>> {
  return {
    data: await encodeData(address, account, options, ledger),
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner.toBase58(),
    rentEpoch: account.rentEpoch ?? RENT_EXEMPT_RENT_EPOCH,
    space: account.data.length,
  };
}

async function encodeData(address: string, account: LedgerAccount, options: AccountEncodingOptions, ledger: Ledger): Promise<unknown> {
  const { encoding, dataSlice } = options;
  if (encoding === 'jsonParsed') {
    return parsedNativeAccount(address, account) ?? (await parsedAccountData(account, ledger)) ?? [Buffer.from(account.data).toString('base64'), 'base64'];
  }
  const data = dataSlice ? account.data.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length) : account.data;
  if (encoding === 'base64') return [Buffer.from(data).toString('base64'), 'base64'];
  // Agave compresses the (sliced) data with a streaming encoder at the default level: a frame with no
  // content size (zstd-frames.ts). Rust's solana-client asks for this encoding by default.
  if (encoding === 'base64+zstd') return [Buffer.from(await zstdCompressStreamed(data)).toString('base64'), 'base64+zstd'];
  if (data.length > MAX_BASE58_BYTES) {
    throw new JsonRpcError(
      RPC_ERROR.INVALID_REQUEST,
      `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
    );
  }
  return encoding === 'base58' ? [encodeBase58(data), 'base58'] : encodeBase58(data);
}

function programName(programId: string): string {
  return programId === 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' ? 'spl-token' : 'spl-token-2022';
}

/**
 * jsonParsed data of SPL Token and Token-2022 accounts, mints and multisigs, Token-2022's
 * extensions listed (token-extensions.ts), nonce accounts and lookup tables
 * (parse-system-accounts.ts), or null where the validator falls back to base64.
 */
async function parsedAccountData(account: LedgerAccount, ledger: Ledger): Promise<Record<string, unknown> | null> {
  const parsed = (type: string, info: Record<string, unknown>) => ({
    program: programName(account.owner.toBase58()),
    parsed: { info, type },
    space: account.data.length,
  });
  const system = parsedSystemAccount(account);
  if (system) return system;
  const token = decodeTokenAccount(account);
  if (token) {
    const decimals = await ledger.mintDecimals(token.mint);
    if (decimals === null) return null;
    return parsed('account', await withExtensions(tokenAccountInfo(token, decimals), account.data));
  }
  const mint = decodeMint(account);
  if (mint) {
    const info = {
      decimals: mint.decimals,
      freezeAuthority: mint.freezeAuthority,
      isInitialized: mint.isInitialized,
      mintAuthority: mint.mintAuthority,
      supply: mint.supply.toString(),
    };
    return parsed('mint', await withExtensions(info, account.data));
  }
  if (isTokenProgram(account.owner) && account.data.length === MULTISIG_SIZE && account.data[2] === 1) {
    const { data } = account;
    const valid = data[1]!;
    return parsed('multisig', {
      isInitialized: true,
      numRequiredSigners: data[0],
      numValidSigners: valid,
      signers: Array.from({ length: valid }, (_, index) => encodeBase58(data.subarray(3 + 32 * index, 35 + 32 * index))),
    });
  }
  return null;
}

/** `info` with the data's Token-2022 extensions as `extensions`, which the validator leaves out when there are none. */
async function withExtensions(info: Record<string, unknown>, data: Uint8Array): Promise<Record<string, unknown>> {
  // Only Token-2022 data past the base layout has extensions; their layouts (spl-token's) load with the first.
  if (data.length <= ACCOUNT_SIZE) return info;
  const { tokenExtensions } = await import('./token-extensions.ts');
  const extensions = tokenExtensions(data);
  return extensions.length === 0 ? info : { ...info, extensions };
}

/** The validator's `UiTokenAccount`; optional members are absent, not null, as it serializes them. */
function tokenAccountInfo(token: TokenAccountState, decimals: number): Record<string, unknown> {
  const info: Record<string, unknown> = {
    isNative: token.isNative !== null,
    mint: token.mint,
    owner: token.owner,
    state: token.state,
    tokenAmount: uiTokenAmount(token.amount, decimals),
  };
  if (token.delegate !== null) {
    info.delegate = token.delegate;
    info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals) satisfies UiTokenAmount;
  }
  if (token.isNative !== null) info.rentExemptReserve = uiTokenAmount(token.isNative, decimals);
  if (token.closeAuthority !== null) info.closeAuthority = token.closeAuthority;
  return info;
}
