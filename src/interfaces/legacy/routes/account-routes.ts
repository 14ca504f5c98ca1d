import type { LegacyDeps } from '../legacy-deps.ts';
import type { Route } from '../../../base/http/router.ts';
import { jsonResponse } from '../../../base/http/json-response.ts';
import { parseAddress } from '../../../base/http/address.ts';
import { accountInfo, balanceOf, historyOf, tokenAccountsOf } from '../legacy-reads.ts';
import { checkClient, clientOf } from '../client-guard.ts';
import { addressParam, appOf, checkReadCommitment, claimsLegacyBody, referenceOf } from './route-kit.ts';
import { relayClientRoute } from './transaction-routes.ts';

const createAccount: Route<LegacyDeps> = {
  method: 'POST',
  path: '/account/create',
  api: 'legacy',
  operationId: 'legacyCreateAccount',
  accepts: claimsLegacyBody('legacyCreateAccount', 'createAccount'),
  handle: (context) => relayClientRoute(context, 'legacyCreateAccount', 'create'),
};

/** The legacy server-side close: the owner names their wallet, the emulator builds and relays the close. */
const closeAccount: Route<LegacyDeps> = {
  method: 'POST',
  path: '/account/close',
  api: 'legacy',
  operationId: 'legacyCloseAccount',
  accepts: claimsLegacyBody('legacyCloseAccount', 'closeAccount'),
  async handle(context) {
    const { deps, request } = context;
    const receivedAt = deps.now();
    const body = deps.binder.body('legacyCloseAccount', await context.body());
    const { legacy } = deps;
    const app = legacy.apps.get(body.environment, body.index);
    const client = clientOf(request, context.requestContext);
    checkClient(app, client);
    const mint = legacy.apps.mint(app, body.mint);
    const owner = parseAddress(body.account, 'account').toBase58();
    const record = await legacy.closeAccount({ app, mint, client, commitment: body.commitment, reference: referenceOf(body), receivedAt }, owner);
    return jsonResponse(record, { status: 201 });
  },
};

const balance: Route<LegacyDeps> = {
  method: 'GET',
  path: '/account/balance/{environment}/{index}/{accountId}',
  api: 'legacy',
  operationId: 'legacyBalance',
  async handle(context) {
    checkReadCommitment(context, 'legacyBalance');
    const { app } = appOf(context);
    return jsonResponse(await balanceOf(context.deps, app, addressParam(context, 'accountId')));
  },
};

const history: Route<LegacyDeps> = {
  method: 'GET',
  path: '/account/history/{environment}/{index}/{accountId}/{mint}',
  api: 'legacy',
  operationId: 'legacyHistory',
  async handle(context) {
    checkReadCommitment(context, 'legacyHistory');
    appOf(context);
    return jsonResponse(await historyOf(context.deps, addressParam(context, 'accountId'), addressParam(context, 'mint')));
  },
};

const info: Route<LegacyDeps> = {
  method: 'GET',
  path: '/account/info/{environment}/{index}/{accountId}/{mint}',
  api: 'legacy',
  operationId: 'legacyAccountInfo',
  async handle(context) {
    checkReadCommitment(context, 'legacyAccountInfo');
    const { legacy, app } = appOf(context);
    return jsonResponse(await accountInfo(context.deps, legacy.apps, app, addressParam(context, 'accountId'), addressParam(context, 'mint')));
  },
};

/** Kinetic's older account info route, without a mint: the app's default mint. */
const infoDefaultMint: Route<LegacyDeps> = {
  method: 'GET',
  path: '/account/info/{environment}/{index}/{accountId}',
  api: 'legacy',
  operationId: 'legacyAccountInfoDefaultMint',
  async handle(context) {
    checkReadCommitment(context, 'legacyAccountInfoDefaultMint');
    const { legacy, app } = appOf(context);
    return jsonResponse(await accountInfo(context.deps, legacy.apps, app, addressParam(context, 'accountId'), app.mints[0]!.publicKey));
  },
};

const tokenAccounts: Route<LegacyDeps> = {
  method: 'GET',
  path: '/account/token-accounts/{environment}/{index}/{accountId}/{mint}',
  api: 'legacy',
  operationId: 'legacyTokenAccounts',
  async handle(context) {
    checkReadCommitment(context, 'legacyTokenAccounts');
    appOf(context);
    const accounts = await tokenAccountsOf(context.deps, addressParam(context, 'accountId'), addressParam(context, 'mint'));
    return jsonResponse(accounts.map(({ address }) => address));
  },
};

export const accountRoutes: Route<LegacyDeps>[] = [createAccount, closeAccount, balance, history, info, infoDefaultMint, tokenAccounts];
