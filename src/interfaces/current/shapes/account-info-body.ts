import { SystemProgram } from '@solana/web3.js';
import { RelayError } from '../../../base/errors/relay-error.ts';
import type { CurrentDeps } from '../current-deps.ts';
import { accountInfoPascal, camelTokenInfo, tokenInfo, type AccountInfoPascal, type CamelTokenInfo, type TokenInfo } from './token-infos.ts';
import { walletTokenAccounts } from './wallet-token-accounts.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';
import { parseAddress } from '../../../base/http/address.ts';

/** POST /Account/getaccountinfo: the spec's `accountInfo` (2.3), and the Android SDK's GetAccountResponse beside it. */
export interface AccountInfoBody {
  accountInfo: { address: string; owner: string; lamports: number; executable: boolean };
  AccountAddress: string;
  AccountInfo: AccountInfoPascal;
  TokenInfos: TokenInfo[];
  /** AccountAddress and TokenInfos again in camelCase, as the Android SDK's v0.1.3-alpha to v0.1.5-alpha read them (with `accountInfo`). */
  accountAddress: string;
  tokenInfos: CamelTokenInfo[];
}

/**
 * A gasless wallet holds no SOL, so it has no account on the ledger, yet it owns token accounts:
 * it is answered as the System Program's empty account (0 lamports), with its token accounts, as
 * the Android SDK expects (`AccountInfo` is required in its GetAccountResponse, and its getAccountInfo
 * is called for exactly such wallets). Only an address with neither is 404 ACCOUNT_NOT_FOUND.
 */
export async function accountInfoBody(deps: CurrentDeps, accountAddress: unknown): Promise<AccountInfoBody> {
  const key = parseAddress(accountAddress, 'accountAddress');
  const address = addressOf(key);
  const account = await deps.ledger.getAccount(key);
  const tokens = await walletTokenAccounts(deps, address, null);
  if (!account && tokens.length === 0) throw new RelayError('ACCOUNT_NOT_FOUND', `Account ${address} does not exist on the ledger and owns no token account.`);
  const shown = account ?? { lamports: 0n, owner: SystemProgram.programId, executable: false };
  const tokenInfos = tokens.map(tokenInfo);
  return {
    accountInfo: { address, owner: addressOf(shown.owner), lamports: Number(shown.lamports), executable: shown.executable },
    AccountAddress: address,
    AccountInfo: accountInfoPascal(shown),
    TokenInfos: tokenInfos,
    accountAddress: address,
    tokenInfos: tokenInfos.map(camelTokenInfo),
  };
}
