import type { MetaDeps } from './meta-deps.ts';
import type { Route } from '../../base/http/router.ts';
import { respond } from '../../base/http/respond.ts';
import { openApiText } from '../../domain/openapi/document.ts';

/** GET /openapi.yaml: the contract the emulator serves, as YAML. */
export const openApiRoute: Route<MetaDeps> = {
  method: 'GET',
  path: '/openapi.yaml',
  api: 'meta',
  operationId: 'getOpenApi',
  async handle() {
    return respond(openApiText(), { headers: { 'Content-Type': 'text/yaml; charset=utf-8' } });
  },
};
