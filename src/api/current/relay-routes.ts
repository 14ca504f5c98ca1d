import { receiptBody } from './shapes/index.ts';
import { jsonResponse } from '../../http/json-response.ts';
import type { Route } from '../../http/router.ts';
import type { RelayOperation } from '../../relay/policy.ts';
import type { EmulatorServices } from '../../services.ts';

type CurrentRoute = Route<EmulatorServices>;

function relayRoute(path: string, operationId: 'createAccount' | 'closeAccount' | 'sendTransaction' | 'sendBatch', operation: RelayOperation): CurrentRoute {
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

export const relayRoutes: CurrentRoute[] = [
  relayRoute('/Account/create', 'createAccount', 'create'),
  relayRoute('/Account/close', 'closeAccount', 'close'),
  relayRoute('/Transaction/send', 'sendTransaction', 'send'),
  relayRoute('/Transaction/sendbatch', 'sendBatch', 'sendbatch'),
];
