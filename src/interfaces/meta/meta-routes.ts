import type { EmulatorRoute } from '../../core/create-fetch.ts';
import { docsRoutes } from './docs-routes.ts';
import { healthRoute } from './health-route.ts';
import { openApiRoute } from './openapi-route.ts';

/** /health, /openapi.yaml and /docs at the server root: no authentication, no admin token. */
export const metaRoutes: EmulatorRoute[] = [healthRoute, openApiRoute, ...docsRoutes];
