import type { MetaDeps } from './meta-deps.ts';
import type { Route } from '../../base/http/router.ts';
import { jsonResponse } from '../../base/http/json-response.ts';
import { EMULATOR_VERSION } from '../../base/version.ts';

/** GET /health: the ledger's slot, the emulator's version and its engine; no authentication, no admin token. */
export const healthRoute: Route<MetaDeps> = {
  method: 'GET',
  path: '/health',
  api: 'meta',
  operationId: 'health',
  async handle({ deps }) {
    return jsonResponse({ status: 'ok', slot: Number(deps.ledger.clock().slot), version: EMULATOR_VERSION, engine: deps.config.engine });
  },
};
