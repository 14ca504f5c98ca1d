import { receiptBody } from './shapes/index.ts';
import { jsonResponse } from '../../base/http/json-response.ts';
import type { EmulatorRoute } from '../../core/create-fetch.ts';
import type { RelayOperation } from '../../domain/relay/policy.ts';

function relayRoute(path: string, operationId: 'createAccount' | 'closeAccount' | 'sendTransaction' | 'sendBatch', operation: RelayOperation): EmulatorRoute {
  return {
    method: 'POST',
    path,
    api: 'current',
    operationId,
    async handle(context) {
      const { services } = context;
      const { signedTransaction } = services.binder.body(operationId, await context.body());
      const { receipt } = await services.relay.relay(operation, signedTransaction);
      if (operation !== 'sendbatch') return jsonResponse(receiptBody(receipt));
      return jsonResponse({ ...receiptBody(receipt), success: true, signatures: [receipt.signature] });
    },
  };
}

export const relayRoutes: EmulatorRoute[] = [
  relayRoute('/Account/create', 'createAccount', 'create'),
  relayRoute('/Account/close', 'closeAccount', 'close'),
  relayRoute('/Transaction/send', 'sendTransaction', 'send'),
  relayRoute('/Transaction/sendbatch', 'sendBatch', 'sendbatch'),
];
