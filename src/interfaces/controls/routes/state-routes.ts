import type { ControlsDeps } from '../controls-deps.ts';
import type { Route } from '../../../base/http/router.ts';
import type { EmulatorSnapshot, TestControlMethods } from '../control-types.ts';
import { encodeState, reviveState } from '../../../domain/state/state-codec.ts';
import { jsonResponse, jsonTextResponse } from '../../../base/http/json-response.ts';
import { readJsonBody } from '../../../base/http/read-json-body.ts';

/**
 * Largest state an import takes, when sent with a Content-Length. A snapshot grows by about a
 * kilobyte a transaction; this holds some hundred thousand. A body without a Content-Length is
 * held to the usual body limit (the node server reads no further than it).
 */
const STATE_IMPORT_MAX_BYTES = 256 * 1024 * 1024;

/**
 * GET and PUT /__emulator/state: the whole state as the state file holds it (a sealed snapshot,
 * state-codec JSON), exported from a running server and imported into another (or the same).
 */
export function stateRoutes(controls: Pick<TestControlMethods, 'snapshot' | 'restore'>): Route<ControlsDeps>[] {
  return [
    {
      method: 'GET',
      path: '/__emulator/state',
      api: 'emulator',
      operationId: 'emulatorExportState',
      async handle() {
        const snapshot = await controls.snapshot();
        const name = `relay-emulator-state-${snapshot.savedAt.replace(/[:.]/g, '-')}.json`;
        return jsonTextResponse(encodeState(snapshot), { headers: { 'Content-Disposition': `attachment; filename="${name}"` } });
      },
    },
    {
      method: 'PUT',
      path: '/__emulator/state',
      api: 'emulator',
      operationId: 'emulatorImportState',
      async handle(context) {
        const declared = context.request.headers.get('content-length') !== null;
        const parsed = await readJsonBody(context.request, {
          maxBytes: declared ? STATE_IMPORT_MAX_BYTES : context.deps.config.maxBodyBytes,
          context: context.requestContext,
          vars: context.vars,
        });
        context.deps.binder.body('emulatorImportState', parsed);
        // The codec's {"$bigint"} and {"$bytes"} forms back to bigints and bytes, as a state file is read.
        const snapshot = reviveState(parsed) as EmulatorSnapshot;
        await controls.restore(snapshot);
        const transactions = context.deps.submissions.all();
        return jsonResponse({
          ok: true,
          savedAt: snapshot.savedAt ?? null,
          transactions: transactions.length,
          queued: context.deps.queue.state().pending,
        });
      },
    },
  ];
}
