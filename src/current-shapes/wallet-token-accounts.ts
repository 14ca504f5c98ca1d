import type { LedgerAccount } from '../ledger/engine.ts';
import { decodeTokenAccount, type TokenAccountState } from '../ledger/token-accounts.ts';
import { parseAddress } from '../routes/address.ts';
import type { EmulatorServices } from '../services.ts';

/** One token account a wallet owns, as the ledger has it now. */
export interface WalletTokenAccount {
  address: string;
  account: LedgerAccount;
  state: TokenAccountState;
  decimals: number;
}

/**
 * The token accounts `wallet` owns (of `mint` only, when given), sorted by address. The index only
 * knows accounts it saw, so each is read again: one closed or handed to someone else drops out.
 */
export async function walletTokenAccounts(services: EmulatorServices, wallet: string, mint: string | null): Promise<WalletTokenAccount[]> {
  const found: WalletTokenAccount[] = [];
  for (const address of services.tokenAccounts.of(wallet).sort()) {
    const account = await services.ledger.getAccount(parseAddress(address, 'tokenAccount'));
    const state = decodeTokenAccount(account);
    if (!account || !state || state.owner !== wallet || (mint !== null && state.mint !== mint)) continue;
    found.push({ address, account, state, decimals: (await services.ledger.mintDecimals(state.mint)) ?? 0 });
  }
  return found;
}
