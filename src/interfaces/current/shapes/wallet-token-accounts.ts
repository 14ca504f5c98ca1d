import type { LedgerAccount } from '../../../domain/ledger/engine.ts';
import type { TokenAccountState } from '../../../domain/ledger/token-accounts.ts';
import { parseAddress } from '../../../base/http/address.ts';
import type { CurrentDeps } from '../current-deps.ts';
import { ownedTokenAccounts } from '../../../domain/store/owned-token-accounts.ts';

/** One token account a wallet owns, as the ledger has it now, with its raw account and its mint's decimals. */
export interface WalletTokenAccount {
  address: string;
  account: LedgerAccount;
  state: TokenAccountState;
  decimals: number;
}

/** The token accounts `wallet` owns (of `mint` only, when given), sorted by address. */
export async function walletTokenAccounts(deps: CurrentDeps, wallet: string, mint: string | null): Promise<WalletTokenAccount[]> {
  const found: WalletTokenAccount[] = [];
  for (const { address, state } of await ownedTokenAccounts(deps, wallet, mint)) {
    const account = await deps.ledger.getAccount(parseAddress(address, 'tokenAccount'));
    if (!account) continue;
    found.push({ address, account, state, decimals: (await deps.ledger.mintDecimals(state.mint)) ?? 0 });
  }
  return found;
}
