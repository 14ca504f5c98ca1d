import { RelayError } from '../../errors/relay-error.ts';
import { jsonResponse } from '../../http/json-response.ts';
import type { Route } from '../../http/router.ts';
import { decodeTokenAccount, toUiAmountString } from '../../ledger/token-accounts.ts';
import type { EmulatorServices } from '../../services.ts';
import { parseAddress } from '../address.ts';

type CurrentRoute = Route<EmulatorServices>;

const getAccountInfo: CurrentRoute = {
  method: 'POST',
  path: '/Account/getaccountinfo',
  api: 'current',
  operationId: 'getAccountInfo',
  async handle({ body, services }) {
    const { accountAddress } = services.binder.body('getAccountInfo', await body());
    const address = parseAddress(accountAddress, 'accountAddress');
    const account = await services.ledger.getAccount(address);
    if (!account) throw new RelayError('ACCOUNT_NOT_FOUND', `Account ${address.toBase58()} does not exist on the ledger.`);
    return jsonResponse({
      accountInfo: {
        address: address.toBase58(),
        owner: account.owner.toBase58(),
        lamports: Number(account.lamports),
        executable: account.executable,
      },
    });
  },
};

const getBalance: CurrentRoute = {
  method: 'POST',
  path: '/Account/balance',
  api: 'current',
  operationId: 'getBalance',
  async handle({ body, services }) {
    const bound = services.binder.body('getBalance', await body());
    const wallet = parseAddress(bound.accountAddress, 'accountAddress');
    const mint = bound.mintAddress === undefined ? null : parseAddress(bound.mintAddress, 'mintAddress').toBase58();
    const lamports = (await services.ledger.getAccount(wallet))?.lamports ?? 0n;
    const tokens = [];
    for (const tokenAccount of services.tokenAccounts.of(wallet.toBase58()).sort()) {
      const state = decodeTokenAccount(await services.ledger.getAccount(parseAddress(tokenAccount, 'tokenAccount')));
      if (!state || state.owner !== wallet.toBase58() || (mint !== null && state.mint !== mint)) continue;
      const decimals = (await services.ledger.mintDecimals(state.mint)) ?? 0;
      tokens.push({
        mint: state.mint,
        tokenAccount,
        amount: state.amount.toString(),
        decimals,
        uiAmountString: toUiAmountString(state.amount, decimals),
      });
    }
    return jsonResponse({
      accountAddress: wallet.toBase58(),
      sol: { amount: lamports.toString(), decimals: 9, uiAmountString: toUiAmountString(lamports, 9) },
      tokens,
    });
  },
};

const getHistory: CurrentRoute = {
  method: 'POST',
  path: '/Account/gethistory',
  api: 'current',
  operationId: 'getHistory',
  async handle({ url, services }) {
    const query = services.binder.query('getHistory', url.searchParams) as {
      WalletAddress: string;
      PageNumber: number;
      PageSize: number;
      MintAddress?: string;
      Limit?: number;
    };
    const wallet = parseAddress(query.WalletAddress, 'WalletAddress').toBase58();
    const mint = query.MintAddress === undefined ? undefined : parseAddress(query.MintAddress, 'MintAddress').toBase58();
    const offset = (query.PageNumber - 1) * query.PageSize;
    const cap = query.Limit ?? Number.POSITIVE_INFINITY;
    const size = Math.max(0, Math.min(query.PageSize, cap - offset));
    const entries = size === 0 ? [] : services.history.query(wallet, { mint, offset, limit: size });
    return jsonResponse({ transactions: entries });
  },
};

export const accountRoutes: CurrentRoute[] = [getAccountInfo, getBalance, getHistory];
