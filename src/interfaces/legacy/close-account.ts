import { PublicKey } from '@solana/web3.js';
import { RelayError } from '../../base/errors/relay-error.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { HistoryIndex } from '../../domain/store/history-index.ts';
import type { TokenAccountIndex } from '../../domain/store/token-account-index.ts';
import { accountInfo, type LegacyAccountInfo } from './legacy-reads.ts';
import type { LegacyApps } from './legacy-apps.ts';
import type { LegacyTransaction } from './legacy-records.ts';
import type { LegacyCall, LegacyRelay } from './legacy-relay.ts';
import { buildCloseTransaction } from './server-transactions.ts';

/**
 * The legacy server-side close: the owner names their wallet; the emulator finds its one token
 * account of the call's mint, checks the legacy service's conditions (in its words), then builds,
 * signs and relays the close itself, paid by the close authority.
 */
export async function closeAccount(
  core: { ledger: Ledger; tokenAccounts: TokenAccountIndex; history: HistoryIndex; apps: LegacyApps; relay: LegacyRelay },
  call: LegacyCall,
  owner: string,
): Promise<LegacyTransaction> {
  const { app, mint } = call;
  const info = await accountInfo(core, core.apps, app, owner, mint.publicKey);
  const { tokenAccount, closeAuthority, signer } = closableAccount(info, (key) => core.apps.walletSigner(app, key));
  const { blockhash } = await core.ledger.latestBlockhash();
  const built = buildCloseTransaction({
    tokenAccount: new PublicKey(tokenAccount),
    closeAuthority: signer,
    appIndex: app.index,
    addMemo: mint.addMemo,
    blockhash,
  });
  return core.relay.relayServerTransaction({ ...call, mint: { ...mint, feePayer: closeAuthority } }, { ...built, source: owner });
}

function refused(message: string): RelayError {
  return new RelayError('ACCOUNT_CLOSE_REFUSED', message);
}

/** The legacy service's close conditions, in its order and words. */
function closableAccount<S>(
  info: LegacyAccountInfo,
  walletSigner: (publicKey: string) => S | null,
): { tokenAccount: string; closeAuthority: string; signer: S } {
  if (info.isMint) throw refused('Cannot close a mint');
  if (info.isTokenAccount) throw refused('Cannot close a token account');
  const tokens = info.tokens ?? [];
  if (tokens.length === 0) throw refused('Account has no tokens for the specified mint');
  if (tokens.length > 1) throw refused("Can't close account with multiple tokens");
  const token = tokens[0]!;
  if (!token.closeAuthority) throw refused('Token account has no close authority');
  const signer = walletSigner(token.closeAuthority);
  if (signer === null) throw refused('Token account close authority is not a known wallet');
  if (token.balance !== '0') throw refused('Cannot close an account with a balance');
  return { tokenAccount: token.account, closeAuthority: token.closeAuthority, signer };
}
