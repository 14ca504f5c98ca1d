import { RelayError } from '../../errors/relay-error.ts';
import { jsonResponse } from '../../http/json-response.ts';
import type { Route } from '../../http/router.ts';
import { toUiAmountString } from '../../ledger/token-accounts.ts';
import type { EmulatorServices } from '../../services.ts';
import { ownedTokenAccounts } from '../../store/owned-token-accounts.ts';
import { parseAddress } from '../../http/address.ts';
import { addressOf } from '../../crypto/base58.ts';

type CurrentRoute = Route<EmulatorServices>;

const getAccountInfo: CurrentRoute = {
  method: 'POST',
  path: '/Account/getaccountinfo',
  api: 'current',
  operationId: 'getAccountInfo',
  async handle(context) {
    const { services } = context;
    const { accountAddress } = services.binder.body('getAccountInfo', await context.body());
    const address = parseAddress(accountAddress, 'accountAddress');
    const account = await services.ledger.getAccount(address);
    if (!account) throw new RelayError('ACCOUNT_NOT_FOUND', `Account ${addressOf(address)} does not exist on the ledger.`);
    return jsonResponse({
      accountInfo: {
        address: addressOf(address),
        owner: addressOf(account.owner),
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
  async handle(context) {
    const { services } = context;
    const bound = services.binder.body('getBalance', await context.body());
    const wallet = parseAddress(bound.accountAddress, 'accountAddress');
    const mint = bound.mintAddress === undefined ? null : addressOf(parseAddress(bound.mintAddress, 'mintAddress'));
    const lamports = (await services.ledger.getAccount(wallet))?.lamports ?? 0n;
    const tokens = [];
    for (const { address, state } of await ownedTokenAccounts(services, addressOf(wallet), mint)) {
      const decimals = (await services.ledger.mintDecimals(state.mint)) ?? 0;
      tokens.push({ mint: state.mint, tokenAccount: address, amount: state.amount.toString(), decimals, uiAmountString: toUiAmountString(state.amount, decimals) });
    }
    return jsonResponse({
      accountAddress: addressOf(wallet),
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
    const query = services.binder.query('getHistory', url.searchParams, { defaulted: ['PageNumber', 'PageSize'] });
    const wallet = addressOf(parseAddress(query.WalletAddress, 'WalletAddress'));
    const mint = query.MintAddress === undefined ? undefined : addressOf(parseAddress(query.MintAddress, 'MintAddress'));
    const offset = (query.PageNumber - 1) * query.PageSize;
    const cap = query.Limit ?? Number.POSITIVE_INFINITY;
    const size = Math.max(0, Math.min(query.PageSize, cap - offset));
    const entries = size === 0 ? [] : services.history.query(wallet, { mint, offset, limit: size });
    return jsonResponse({ transactions: entries });
  },
};

export const accountRoutes: CurrentRoute[] = [getAccountInfo, getBalance, getHistory];
