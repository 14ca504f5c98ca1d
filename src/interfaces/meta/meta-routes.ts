import type { MetaDeps } from './meta-deps.ts';
import type { Route } from '../../base/http/router.ts';
import { docsRoutes } from './docs-routes.ts';
import { healthRoute } from './health-route.ts';
import { openApiRoute } from './openapi-route.ts';

/** /health, /openapi.yaml and /docs at the server root: no authentication, no admin token. */
export const metaRoutes: Route<MetaDeps>[] = [healthRoute, openApiRoute, ...docsRoutes];
