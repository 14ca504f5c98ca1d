import type { LedgerAccount } from '../../../domain/ledger/engine.ts';
import type { TokenAccountState } from '../../../domain/ledger/token-accounts.ts';
import { parseAddress } from '../../../base/http/address.ts';
import type { EmulatorServices } from '../../../assembly/services.ts';
import { ownedTokenAccounts } from '../../../domain/store/owned-token-accounts.ts';

/** One token account a wallet owns, as the ledger has it now, with its raw account and its mint's decimals. */
export interface WalletTokenAccount {
  address: string;
  account: LedgerAccount;
  state: TokenAccountState;
  decimals: number;
}

/** The token accounts `wallet` owns (of `mint` only, when given), sorted by address. */
export async function walletTokenAccounts(services: EmulatorServices, wallet: string, mint: string | null): Promise<WalletTokenAccount[]> {
  const found: WalletTokenAccount[] = [];
  for (const { address, state } of await ownedTokenAccounts(services, wallet, mint)) {
    const account = await services.ledger.getAccount(parseAddress(address, 'tokenAccount'));
    if (!account) continue;
    found.push({ address, account, state, decimals: (await services.ledger.mintDecimals(state.mint)) ?? 0 });
  }
  return found;
}
