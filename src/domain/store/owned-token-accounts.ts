import { PublicKey } from '@solana/web3.js';
import type { Ledger } from '../ledger/ledger.ts';
import { decodeTokenAccount, type TokenAccountState } from '../ledger/token-accounts.ts';
import type { TokenAccountIndex } from './token-account-index.ts';

export interface OwnedTokenAccount {
  address: string;
  state: TokenAccountState;
}

/**
 * The owner's token accounts (of `mint`, or of every mint when null) as they are on the ledger
 * now, sorted by address: the index names candidates, the ledger decides.
 */
export async function ownedTokenAccounts(
  services: { ledger: Ledger; tokenAccounts: TokenAccountIndex },
  owner: string,
  mint: string | null,
): Promise<OwnedTokenAccount[]> {
  const found: OwnedTokenAccount[] = [];
  for (const address of services.tokenAccounts.of(owner).sort()) {
    const state = decodeTokenAccount(await services.ledger.getAccount(new PublicKey(address)));
    if (state && state.owner === owner && (mint === null || state.mint === mint)) found.push({ address, state });
  }
  return found;
}
