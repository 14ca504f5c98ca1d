import type { CurrentDeps } from './current-deps.ts';
import type { Route } from '../../base/http/router.ts';
import { receiptBody } from './shapes/index.ts';
import { jsonResponse } from '../../base/http/json-response.ts';
import type { RelayOperation } from '../../domain/relay/policy.ts';

function relayRoute(
  path: string,
  operationId: 'createAccount' | 'closeAccount' | 'sendTransaction' | 'sendBatch',
  operation: RelayOperation,
): Route<CurrentDeps> {
  return {
    method: 'POST',
    path,
    api: 'current',
    operationId,
    async handle(context) {
      const { deps } = context;
      const { signedTransaction } = deps.binder.body(operationId, await context.body());
      const { receipt } = await deps.relay.relay(operation, signedTransaction);
      if (operation !== 'sendbatch') return jsonResponse(receiptBody(receipt));
      return jsonResponse({ ...receiptBody(receipt), success: true, signatures: [receipt.signature] });
    },
  };
}

export const relayRoutes: Route<CurrentDeps>[] = [
  relayRoute('/Account/create', 'createAccount', 'create'),
  relayRoute('/Account/close', 'closeAccount', 'close'),
  relayRoute('/Transaction/send', 'sendTransaction', 'send'),
  relayRoute('/Transaction/sendbatch', 'sendBatch', 'sendbatch'),
];
