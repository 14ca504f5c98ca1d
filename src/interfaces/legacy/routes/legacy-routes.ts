import type { LegacyDeps } from '../legacy-deps.ts';
import type { Route } from '../../../base/http/router.ts';
import { accountRoutes } from './account-routes.ts';
import { appRoutes } from './app-routes.ts';
import { transactionRoutes } from './transaction-routes.ts';

/**
 * The legacy environment/index-routed interface (spec 4.3 and the rest of its SDK's surface). No API
 * key; errors in the NestJS body `{statusCode, message, error}`. Mount before the current routes:
 * account/create and account/close share their paths and claim bodies that name an `environment`.
 */
export const legacyRoutes: Route<LegacyDeps>[] = [...transactionRoutes, ...accountRoutes, ...appRoutes];
