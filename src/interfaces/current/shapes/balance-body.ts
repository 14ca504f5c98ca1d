import { toUiAmountString } from '../../../domain/ledger/token-accounts.ts';
import type { CurrentDeps } from '../current-deps.ts';
import { camelTokenInfo, tokenInfo, type CamelTokenInfo, type TokenInfo } from './token-infos.ts';
import { walletTokenAccounts } from './wallet-token-accounts.ts';
import { addressOf } from '../../../base/crypto/key-cache.ts';
import { parseAddress } from '../../../base/http/address.ts';

interface Amount {
  amount: string;
  decimals: number;
  uiAmountString: string;
}

/** POST /Account/balance: the contract's BalanceResult, the spec's choice and the Android shape side by side. */
export interface BalanceBody {
  accountAddress: string;
  sol: Amount;
  tokens: (Amount & { mint: string; tokenAccount: string })[];
  AccountAddress: string;
  /** The mint's balance in whole tokens when a mint was asked for, else SOL. */
  Balance: number;
  /** The mint's fixture symbol (`SOL` without a mint), null when the emulator does not know it. */
  Symbol: string | null;
  TokenInfos: TokenInfo[];
  /** Balance, Symbol and TokenInfos again in camelCase, as the Android SDK's v0.1.3-alpha to v0.1.5-alpha read them. */
  balance: number;
  symbol: string | null;
  tokenInfos: CamelTokenInfo[];
}

export async function balanceBody(deps: CurrentDeps, accountAddress: unknown, mintAddress: unknown): Promise<BalanceBody> {
  const wallet = addressOf(parseAddress(accountAddress, 'accountAddress'));
  const mint = mintAddress === undefined ? null : addressOf(parseAddress(mintAddress, 'mintAddress'));
  const lamports = (await deps.ledger.getAccount(parseAddress(wallet, 'accountAddress')))?.lamports ?? 0n;
  const accounts = await walletTokenAccounts(deps, wallet, mint);
  const tokens = accounts.map(({ address, state, decimals }) => ({
    mint: state.mint,
    tokenAccount: address,
    amount: state.amount.toString(),
    decimals,
    uiAmountString: toUiAmountString(state.amount, decimals),
  }));
  let balance: number;
  let symbol: string | null;
  if (mint === null) {
    balance = Number(toUiAmountString(lamports, 9));
    symbol = 'SOL';
  } else {
    const decimals = (await deps.ledger.mintDecimals(mint)) ?? accounts[0]?.decimals ?? 0;
    balance = Number(
      toUiAmountString(
        accounts.reduce((sum, { state }) => sum + state.amount, 0n),
        decimals,
      ),
    );
    symbol = deps.fixtures.mints.find((fixture) => fixture.address === mint)?.symbol ?? null;
  }
  const tokenInfos = accounts.map(tokenInfo);
  return {
    accountAddress: wallet,
    sol: { amount: lamports.toString(), decimals: 9, uiAmountString: toUiAmountString(lamports, 9) },
    tokens,
    AccountAddress: wallet,
    Balance: balance,
    Symbol: symbol,
    TokenInfos: tokenInfos,
    balance,
    symbol,
    tokenInfos: tokenInfos.map(camelTokenInfo),
  };
}
