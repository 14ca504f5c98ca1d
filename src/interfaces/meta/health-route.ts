import type { EmulatorRoute } from '../../core/create-fetch.ts';
import { jsonResponse } from '../../base/http/json-response.ts';
import { EMULATOR_VERSION } from '../../base/version.ts';

/** GET /health: the ledger's slot, the emulator's version and its engine; no authentication, no admin token. */
export const healthRoute: EmulatorRoute = {
  method: 'GET',
  path: '/health',
  api: 'meta',
  operationId: 'health',
  async handle({ services }) {
    return jsonResponse({ status: 'ok', slot: Number(services.ledger.clock().slot), version: EMULATOR_VERSION, engine: services.config.engine });
  },
};
