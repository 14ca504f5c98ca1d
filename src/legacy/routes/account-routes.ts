import { PublicKey } from '@solana/web3.js';
import type { components } from '../../generated/relay.ts';
import { RelayError } from '../../errors/relay-error.ts';
import { jsonResponse } from '../../http/json-response.ts';
import { parseAddress } from '../../routes/address.ts';
import { accountInfo, balanceOf, historyOf, tokenAccountsOf, type LegacyAccountInfo } from '../account-reads.ts';
import { checkClient, clientOf } from '../client-guard.ts';
import { legacyOf } from '../legacy-service.ts';
import { buildCloseTransaction } from '../server-transactions.ts';
import { addressParam, appOf, checkReadCommitment, hasEnvironment, referenceOf, type LegacyRoute } from './route-kit.ts';
import { relayClientRoute } from './transaction-routes.ts';

const createAccount: LegacyRoute = {
  method: 'POST',
  path: '/account/create',
  api: 'legacy',
  operationId: 'legacyCreateAccount',
  accepts: hasEnvironment,
  handle: (context) => relayClientRoute(context, 'legacyCreateAccount', 'create'),
};

type CloseBody = components['schemas']['LegacyCloseAccountRequest'];

/**
 * The legacy server-side close: the owner names their wallet; the emulator finds its one token
 * account of the mint, checks the legacy service's conditions (in its words), then builds, signs and
 * relays the close itself.
 */
const closeAccount: LegacyRoute = {
  method: 'POST',
  path: '/account/close',
  api: 'legacy',
  operationId: 'legacyCloseAccount',
  accepts: hasEnvironment,
  async handle(context) {
    const { services, request } = context;
    const receivedAt = services.now();
    const body = services.binder.body('legacyCloseAccount', await context.body()) as unknown as CloseBody;
    const legacy = legacyOf(services);
    const app = legacy.apps.get(body.environment, body.index);
    const client = clientOf(request);
    checkClient(app, client);
    const mint = legacy.apps.mint(app, body.mint);
    const account = parseAddress(body.account, 'account').toBase58();
    const info = await accountInfo(services, legacy.apps, app, account, mint.publicKey);
    const { tokenAccount, closeAuthority, signer } = closableAccount(info, (key) => legacy.apps.walletSigner(app, key));

    const { blockhash } = await services.ledger.latestBlockhash();
    const built = buildCloseTransaction({ tokenAccount: new PublicKey(tokenAccount), closeAuthority: signer, appIndex: app.index, addMemo: mint.addMemo, blockhash });
    const record = await legacy.relay.relayServerTransaction(
      { app, mint: { ...mint, feePayer: closeAuthority }, client, commitment: body.commitment, reference: referenceOf(body), receivedAt },
      { ...built, source: account },
    );
    return jsonResponse(record, { status: 201 });
  },
};

function refused(message: string): RelayError {
  return new RelayError('ACCOUNT_CLOSE_REFUSED', message);
}

/** The legacy service's close conditions, in its order and words. */
function closableAccount<S>(info: LegacyAccountInfo, walletSigner: (publicKey: string) => S | null): { tokenAccount: string; closeAuthority: string; signer: S } {
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

const balance: LegacyRoute = {
  method: 'GET',
  path: '/account/balance/{environment}/{index}/{accountId}',
  api: 'legacy',
  operationId: 'legacyBalance',
  async handle(context) {
    checkReadCommitment(context, 'legacyBalance');
    const { app } = appOf(context);
    return jsonResponse(await balanceOf(context.services, app, addressParam(context, 'accountId')));
  },
};

const history: LegacyRoute = {
  method: 'GET',
  path: '/account/history/{environment}/{index}/{accountId}/{mint}',
  api: 'legacy',
  operationId: 'legacyHistory',
  async handle(context) {
    checkReadCommitment(context, 'legacyHistory');
    appOf(context);
    return jsonResponse(await historyOf(context.services, addressParam(context, 'accountId'), addressParam(context, 'mint')));
  },
};

const info: LegacyRoute = {
  method: 'GET',
  path: '/account/info/{environment}/{index}/{accountId}/{mint}',
  api: 'legacy',
  operationId: 'legacyAccountInfo',
  async handle(context) {
    checkReadCommitment(context, 'legacyAccountInfo');
    const { legacy, app } = appOf(context);
    return jsonResponse(await accountInfo(context.services, legacy.apps, app, addressParam(context, 'accountId'), addressParam(context, 'mint')));
  },
};

/** Kinetic's older account info route, without a mint: the app's default mint. */
const infoDefaultMint: LegacyRoute = {
  method: 'GET',
  path: '/account/info/{environment}/{index}/{accountId}',
  api: 'legacy',
  operationId: 'legacyAccountInfoDefaultMint',
  async handle(context) {
    checkReadCommitment(context, 'legacyAccountInfoDefaultMint');
    const { legacy, app } = appOf(context);
    return jsonResponse(await accountInfo(context.services, legacy.apps, app, addressParam(context, 'accountId'), app.mints[0]!.publicKey));
  },
};

const tokenAccounts: LegacyRoute = {
  method: 'GET',
  path: '/account/token-accounts/{environment}/{index}/{accountId}/{mint}',
  api: 'legacy',
  operationId: 'legacyTokenAccounts',
  async handle(context) {
    checkReadCommitment(context, 'legacyTokenAccounts');
    appOf(context);
    const accounts = await tokenAccountsOf(context.services, addressParam(context, 'accountId'), addressParam(context, 'mint'));
    return jsonResponse(accounts.map(({ address }) => address));
  },
};

export const accountRoutes: LegacyRoute[] = [createAccount, closeAccount, balance, history, info, infoDefaultMint, tokenAccounts];
