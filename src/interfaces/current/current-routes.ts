import type { CurrentDeps } from './current-deps.ts';
import type { Route } from '../../base/http/router.ts';
import { accountRoutes } from './account-routes.ts';
import { configRoutes } from './config-routes.ts';
import { relayRoutes } from './relay-routes.ts';

/** The current interface (spec 4.1), authenticated with X-API-Key or the bearer Token. */
export const currentRoutes: Route<CurrentDeps>[] = [...configRoutes, ...relayRoutes, ...accountRoutes];
