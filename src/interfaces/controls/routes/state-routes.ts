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
 * How many arrays and objects, and values, an import may hold: checked as the body arrives, before
 * anything is parsed. A state the emulator wrote holds about one array or object per 90 bytes and
 * one value per 30 (2,000 relayed transfers: 5.6 MB, 64,034 and 184,070), so 256 MiB of it is some
 * 3.1 million and 8.9 million; these bounds leave room above that. JSON.parse of 4 million empty
 * arrays takes about a second; 48 MB of them (16 million) held the event loop 9.9 s at 1.2 GB, and
 * 150 MB ran the heap out.
 */
const STATE_IMPORT_SHAPE = { containers: 4_000_000, values: 12_000_000 };

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
          shape: STATE_IMPORT_SHAPE,
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
