import type { PublicKey } from '@solana/web3.js';
import { addressOf } from '../../../base/crypto/key-cache.ts';
import type { components } from '../../../generated/relay.ts';
import { toUiAmountString } from '../../../domain/ledger/token-accounts.ts';
import type { UiDeps } from '../ui-deps.ts';
import { ownedTokenAccounts } from '../../../domain/store/owned-token-accounts.ts';
import { describeLedgerError } from '../../rpc/program-errors.ts';
import { instructionsOf } from './instruction-names.ts';

export type WalletView = components['schemas']['EmulatorWallet'];

/** How many history entries the wallet view shows. */
const WALLET_HISTORY_LIMIT = 50;

/**
 * An address as the web UI's wallet view shows it: its SOL, its token accounts (read as
 * Account/balance reads them: the token account index names candidates, the ledger decides) and its
 * newest history entries (the history index Account/gethistory pages through).
 */
export async function walletView(deps: Pick<UiDeps, 'ledger' | 'tokenAccounts' | 'history' | 'submissions' | 'programs'>, key: PublicKey): Promise<WalletView> {
  const address = addressOf(key);
  const account = await deps.ledger.getAccount(key);
  const tokens: WalletView['tokens'] = [];
  for (const { address: tokenAccount, state } of await ownedTokenAccounts(deps, address, null)) {
    const decimals = (await deps.ledger.mintDecimals(state.mint)) ?? 0;
    tokens.push({ mint: state.mint, tokenAccount, amount: state.amount.toString(), decimals, uiAmountString: toUiAmountString(state.amount, decimals) });
  }
  return {
    address,
    lamports: Number(account?.lamports ?? 0n),
    owner: account ? addressOf(account.owner) : null,
    tokens,
    history: deps.history.query(address, { limit: WALLET_HISTORY_LIMIT }).map((entry) => {
      const wire = entry.err === null ? undefined : deps.submissions.get(entry.signature)?.wire;
      return { ...entry, errorText: entry.err === null ? null : describeLedgerError(entry.err, wire ? instructionsOf(wire) : [], deps.programs) };
    }),
  };
}
