import type { LegacyDeps } from '../legacy-deps.ts';
import type { Route } from '../../../base/http/router.ts';
import { jsonResponse } from '../../../base/http/json-response.ts';
import { EMULATOR_VERSION } from '../../../base/version.ts';
import { appOf } from './route-kit.ts';

const appConfig: Route<LegacyDeps> = {
  method: 'GET',
  path: '/app/{environment}/{index}/config',
  api: 'legacy',
  operationId: 'legacyAppConfig',
  async handle(context) {
    const { app } = appOf(context);
    return jsonResponse({
      app: { index: app.index, name: app.name },
      api: { name: 'relay-emulator', version: EMULATOR_VERSION },
      environment: { name: app.environment, explorer: app.explorer, cluster: app.cluster },
      mint: app.mints[0],
      mints: app.mints,
    });
  },
};

const appHealth: Route<LegacyDeps> = {
  method: 'GET',
  path: '/app/{environment}/{index}/health',
  api: 'legacy',
  operationId: 'legacyAppHealth',
  async handle(context) {
    appOf(context);
    return jsonResponse({ isLedgerOk: true, isLegacyOk: true, time: context.deps.now().toISOString() });
  },
};

/** Tokens of an airdrop mint into the account's associated token account; `{signature}` once the commitment is reached. */
const airdrop: Route<LegacyDeps> = {
  method: 'POST',
  path: '/airdrop',
  api: 'legacy',
  operationId: 'legacyAirdrop',
  async handle(context) {
    const { deps } = context;
    const body = deps.binder.body('legacyAirdrop', await context.body());
    const app = deps.legacy.apps.get(body.environment, body.index);
    const signature = await deps.legacy.airdrop({ app, mint: body.mint, owner: body.account, amount: body.amount, commitment: body.commitment });
    return jsonResponse({ signature }, { status: 201 });
  },
};

export const appRoutes: Route<LegacyDeps>[] = [appConfig, appHealth, airdrop];
