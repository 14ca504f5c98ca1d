import { PublicKey } from '@solana/web3.js';
import { decodeMint, decodeTokenAccount, toUiAmountString } from '../../domain/ledger/token-accounts.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { HistoryIndex } from '../../domain/store/history-index.ts';
import type { TokenAccountIndex } from '../../domain/store/token-account-index.ts';
import { ownedTokenAccounts, type OwnedTokenAccount } from '../../domain/store/owned-token-accounts.ts';
import type { LegacyApp, LegacyApps } from './legacy-apps.ts';

/** The parts these reads use (declared here, not picked from LegacyDeps, which lists the legacy service itself). */
type Services = { ledger: Ledger; tokenAccounts: TokenAccountIndex; history: HistoryIndex };

/** The owner's token accounts of a mint, as they are on the ledger now (sorted by address). */
export function tokenAccountsOf(deps: Services, owner: string, mint: string): Promise<OwnedTokenAccount[]> {
  return ownedTokenAccounts(deps, owner, mint);
}

export interface LegacyAccountInfo {
  account: string;
  isMint: boolean;
  isOwner: boolean;
  isTokenAccount: boolean;
  owner: string | null;
  program: string | null;
  /** Null for a mint, and for a token account that is not its own owner. */
  tokens: { account: string; balance: string; closeAuthority: string | null; decimals: number; mint: string; owner: string }[] | null;
}

/**
 * What the legacy service told about an account: whether it is a mint or a token account, and
 * (for a wallet) its token accounts of the app's mint, with balances in whole-token units.
 */
export async function accountInfo(deps: Services, apps: LegacyApps, app: LegacyApp, account: string, mint: string): Promise<LegacyAccountInfo> {
  const raw = await deps.ledger.getAccount(new PublicKey(account));
  const isMint = decodeMint(raw) !== null;
  const token = decodeTokenAccount(raw);
  const isTokenAccount = token !== null;
  const owner = token?.owner ?? null;
  const result: LegacyAccountInfo = { account, isMint, isOwner: false, isTokenAccount, owner, program: raw?.owner.toBase58() ?? null, tokens: null };
  if (isMint || (isTokenAccount && owner !== account)) return result;
  const appMint = apps.mint(app, mint);
  const tokens = (await tokenAccountsOf(deps, account, appMint.publicKey)).map(({ address, state }) => ({
    account: address,
    balance: toUiAmountString(state.amount, appMint.decimals),
    closeAuthority: state.closeAuthority,
    decimals: appMint.decimals,
    mint: appMint.publicKey,
    owner: state.owner,
  }));
  return { ...result, isOwner: tokens.length > 0, tokens };
}

export interface LegacyBalance {
  /** Balance of the app's default mint (its first), whole-token units. */
  balance: string;
  /** Mint → the owner's token accounts of it. */
  mintMap: Record<string, string[]>;
  /** Mint → total balance, whole-token units (only mints the owner holds accounts of). */
  mints: Record<string, string>;
  tokens: { account: string; balance: string; decimals: number; mint: string }[];
}

/** Balances of every mint of the app, in whole-token units as strings. */
export async function balanceOf(deps: Services, app: LegacyApp, owner: string): Promise<LegacyBalance> {
  const result: LegacyBalance = { balance: '0', mintMap: {}, mints: {}, tokens: [] };
  for (const mint of app.mints) {
    const accounts = await tokenAccountsOf(deps, owner, mint.publicKey);
    result.mintMap[mint.publicKey] = accounts.map(({ address }) => address);
    if (accounts.length === 0) continue;
    let total = 0n;
    for (const { address, state } of accounts) {
      total += state.amount;
      result.tokens.push({ account: address, balance: toUiAmountString(state.amount, mint.decimals), decimals: mint.decimals, mint: mint.publicKey });
    }
    result.mints[mint.publicKey] = toUiAmountString(total, mint.decimals);
  }
  result.balance = result.mints[app.mints[0]!.publicKey] ?? '0';
  return result;
}

/** Most signatures listed per token account, as getSignaturesForAddress's default. */
const HISTORY_LIMIT = 1000;

/** For each of the owner's token accounts of the mint: its signatures, newest first. */
export async function historyOf(deps: Services, owner: string, mint: string) {
  const accounts = await tokenAccountsOf(deps, owner, mint);
  return accounts.map(({ address }) => ({
    account: address,
    history: deps.history
      .query(address, { limit: HISTORY_LIMIT })
      .map(({ signature, slot, blockTime, err, memo }) => ({ signature, slot, blockTime, err, memo })),
  }));
}
