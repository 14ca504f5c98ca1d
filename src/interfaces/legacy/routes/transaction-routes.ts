import type { LegacyDeps } from '../legacy-deps.ts';
import type { Route } from '../../../base/http/router.ts';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { jsonResponse } from '../../../base/http/json-response.ts';
import { checkClient, clientOf } from '../client-guard.ts';
import { publicRecord } from '../legacy-records.ts';
import { appOf, checkReadCommitment, referenceOf, signatureParam, type LegacyContext } from './route-kit.ts';

/**
 * make-transfer and account/create: the client's partially signed transaction, relayed with the
 * mint's fee payer and answered 201 with the legacy transaction record (Failed records included).
 */
export async function relayClientRoute(
  context: LegacyContext,
  operationId: 'legacyMakeTransfer' | 'legacyCreateAccount',
  kind: 'transfer' | 'create',
): Promise<Response> {
  const { deps, request } = context;
  const receivedAt = deps.now();
  const body = deps.binder.body(operationId, await context.body());
  const { legacy } = deps;
  const app = legacy.apps.get(body.environment, body.index);
  const client = clientOf(request, context.requestContext);
  checkClient(app, client);
  const mint = legacy.apps.mint(app, body.mint);
  const record = await legacy.relay.relayClientTransaction(
    { app, mint, client, commitment: body.commitment, reference: referenceOf(body), receivedAt },
    { tx: body.tx, kind, lastValidBlockHeight: body.lastValidBlockHeight },
  );
  return jsonResponse(record, { status: 201 });
}

const makeTransfer: Route<LegacyDeps> = {
  method: 'POST',
  path: '/transaction/make-transfer',
  api: 'legacy',
  operationId: 'legacyMakeTransfer',
  handle: (context) => relayClientRoute(context, 'legacyMakeTransfer', 'transfer'),
};

/**
 * The records of a reference or a signature. Served at the spec's path and at the one Kinetic's
 * SDK (rc.18's `getKineticTransaction`) calls, the brand word in its path: one handler, two routes.
 */
function listTransactions(path: string, operationId: 'legacyListTransactions' | 'legacyGetKineticTransaction'): Route<LegacyDeps> {
  return { method: 'GET', path, api: 'legacy', operationId, handle: (context) => listRecords(context, operationId) };
}

async function listRecords(context: LegacyContext, operationId: 'legacyListTransactions' | 'legacyGetKineticTransaction'): Promise<Response> {
  const { legacy, app } = appOf(context);
  // Empty values bind as absent; the older referenceId/referenceType pair stands for the reference it made.
  const query = context.deps.binder.query(operationId, context.url.searchParams);
  const reference = referenceOf(query) ?? undefined;
  if (!reference && !query.signature) {
    throw new RelayError('REFERENCE_OR_SIGNATURE_REQUIRED', `${app.key}: Please provide either reference or signature`);
  }
  const found = legacy.records.find(app.key, { reference, signature: query.signature });
  if (found.length === 0) throw new RelayError('TRANSACTION_NOT_FOUND', `${app.key}: Transaction not found`);
  return jsonResponse(found.map(publicRecord));
}

const getTransaction: Route<LegacyDeps> = {
  method: 'GET',
  path: '/transaction/transaction/{environment}/{index}/{signature}',
  api: 'legacy',
  operationId: 'legacyGetTransaction',
  async handle(context) {
    const { legacy } = appOf(context);
    checkReadCommitment(context, 'legacyGetTransaction');
    return jsonResponse(legacy.lookup(signatureParam(context, 'signature')));
  },
};

const latestBlockhash: Route<LegacyDeps> = {
  method: 'GET',
  path: '/transaction/latest-blockhash/{environment}/{index}',
  api: 'legacy',
  operationId: 'legacyLatestBlockhash',
  async handle(context) {
    appOf(context);
    const { blockhash, lastValidBlockHeight } = await context.deps.ledger.latestBlockhash();
    return jsonResponse({ blockhash, lastValidBlockHeight: Number(lastValidBlockHeight) });
  },
};

const minimumRent: Route<LegacyDeps> = {
  method: 'GET',
  path: '/transaction/minimum-rent-exemption-balance/{environment}/{index}',
  api: 'legacy',
  operationId: 'legacyMinimumRent',
  async handle(context) {
    appOf(context);
    const { dataLength } = context.deps.binder.query('legacyMinimumRent', context.url.searchParams);
    return jsonResponse({ lamports: Number(await context.deps.ledger.minimumBalanceForRentExemption(dataLength)) });
  },
};

export const transactionRoutes: Route<LegacyDeps>[] = [
  makeTransfer,
  listTransactions('/transaction/legacy-transaction/{environment}/{index}', 'legacyListTransactions'),
  listTransactions('/transaction/kinetic-transaction/{environment}/{index}', 'legacyGetKineticTransaction'),
  getTransaction,
  latestBlockhash,
  minimumRent,
];
