import type { CurrentDeps } from './current-deps.ts';
import type { Route } from '../../base/http/router.ts';
import { accountInfoBody, balanceBody } from './shapes/index.ts';
import { jsonResponse } from '../../base/http/json-response.ts';
import { parseAddress } from '../../base/http/address.ts';
import { addressOf } from '../../base/crypto/key-cache.ts';

const getAccountInfo: Route<CurrentDeps> = {
  method: 'POST',
  path: '/Account/getaccountinfo',
  api: 'current',
  operationId: 'getAccountInfo',
  async handle(context) {
    const { accountAddress } = context.deps.binder.body('getAccountInfo', await context.body());
    return jsonResponse(await accountInfoBody(context.deps, accountAddress));
  },
};

const getBalance: Route<CurrentDeps> = {
  method: 'POST',
  path: '/Account/balance',
  api: 'current',
  operationId: 'getBalance',
  async handle(context) {
    const { accountAddress, mintAddress } = context.deps.binder.body('getBalance', await context.body());
    return jsonResponse(await balanceBody(context.deps, accountAddress, mintAddress));
  },
};

const getHistory: Route<CurrentDeps> = {
  method: 'POST',
  path: '/Account/gethistory',
  api: 'current',
  operationId: 'getHistory',
  async handle({ url, deps }) {
    const query = deps.binder.query('getHistory', url.searchParams, { defaulted: ['PageNumber', 'PageSize'] });
    const wallet = addressOf(parseAddress(query.WalletAddress, 'WalletAddress'));
    const mint = query.MintAddress === undefined ? undefined : addressOf(parseAddress(query.MintAddress, 'MintAddress'));
    const offset = (query.PageNumber - 1) * query.PageSize;
    const cap = query.Limit ?? Number.POSITIVE_INFINITY;
    const size = Math.max(0, Math.min(query.PageSize, cap - offset));
    const entries = size === 0 ? [] : deps.history.query(wallet, { mint, offset, limit: size });
    return jsonResponse({ transactions: entries });
  },
};

export const accountRoutes: Route<CurrentDeps>[] = [getAccountInfo, getBalance, getHistory];
