import type { Route } from '../../base/http/router.ts';
import type { RequestJournal } from '../controls/request-journal.ts';
import { RelayError } from '../../base/errors/relay-error.ts';
import { parseAddress } from '../../base/http/address.ts';
import { jsonResponse } from '../../base/http/json-response.ts';
import { respond } from '../../base/http/respond.ts';
import type { RouteContext } from '../../base/http/router.ts';
import type { LiveFeed } from './inspector/live-feed.ts';
import { changeEventStream } from './inspector/event-stream.ts';
import { overview } from './inspector/overview.ts';
import { relayDetail } from './inspector/relay-detail.ts';
import { relayRows, type RelayFilter } from './inspector/relay-rows.ts';
import { walletView } from './inspector/wallet-view.ts';
import type { WalletLog } from './inspector/wallet-log.ts';
import type { UiDeps } from './ui-deps.ts';
import { TRANSACTION_ORIGINS, type TransactionOrigin } from '../../domain/store/submissions.ts';

type Context = RouteContext<UiDeps>;

export interface InspectorRoutesOptions {
  journal: RequestJournal;
  feed: LiveFeed;
  /** What test wallets were asked (relay-emulator/playwright records them). */
  wallets: WalletLog;
}

const RELAY_STATUSES = ['Queued', 'Processed', 'Confirmed', 'Finalized', 'Failed', 'Refused'] as const;

/**
 * What the web UI reads, under /__emulator and behind the admin guard like every control (the room's middleware): the
 * overview, the relay list and one relay's detail, a wallet, what test wallets were asked, and the change events.
 */
export function inspectorRoutes(options: InspectorRoutesOptions): Route<UiDeps>[] {
  const { journal, feed, wallets } = options;
  const route = (path: string, operationId: string, handle: (context: Context) => Promise<Response>): Route<UiDeps> => ({
    method: 'GET',
    path,
    api: 'emulator',
    operationId,
    handle,
  });
  const sources = (deps: UiDeps) => ({
    submissions: deps.submissions,
    legacy: deps.legacy.records,
    journal,
    profile: deps.config.policyProfile,
    appPrograms: deps.programs,
    sponsors: deps.sponsors,
  });

  return [
    route('/__emulator/overview', 'emulatorOverview', async ({ deps }) => jsonResponse(await overview(deps))),

    route('/__emulator/relays', 'emulatorRelays', async (context) => {
      const query = context.deps.binder.query('emulatorRelays', context.url.searchParams);
      const filter: RelayFilter = {
        ...(typeof query.wallet === 'string' ? { wallet: parseAddress(query.wallet, 'wallet').toBase58() } : {}),
        ...(typeof query.mint === 'string' ? { mint: parseAddress(query.mint, 'mint').toBase58() } : {}),
        ...(isOperation(query.operation) ? { operation: query.operation } : {}),
        ...(isRelayStatus(query.status) ? { status: query.status } : {}),
        ...(typeof query.limit === 'number' ? { limit: query.limit } : {}),
      };
      return jsonResponse({ relays: relayRows(sources(context.deps), filter) });
    }),

    route('/__emulator/relays/{id}', 'emulatorRelay', async ({ deps, params }) => {
      const detail = relayDetail(sources(deps), params.id!);
      if (!detail) throw new RelayError('TRANSACTION_NOT_FOUND', `No relay, legacy record or refused request has the id ${params.id}.`);
      return jsonResponse(detail);
    }),

    route('/__emulator/wallets/{address}', 'emulatorWallet', async ({ deps, params }) =>
      jsonResponse(await walletView(deps, parseAddress(params.address, 'address'))),
    ),

    route('/__emulator/wallet-requests', 'emulatorWalletRequests', async () => jsonResponse({ requests: wallets.list() })),

    route('/__emulator/events', 'emulatorEvents', async ({ request }) => {
      // HEAD gets the headers only: a stream nobody reads would never be cancelled.
      if (request.method === 'HEAD') return respond(null, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' } });
      return changeEventStream(feed);
    }),
  ];
}

function isOperation(value: unknown): value is TransactionOrigin {
  return TRANSACTION_ORIGINS.some((operation) => operation === value);
}

function isRelayStatus(value: unknown): value is (typeof RELAY_STATUSES)[number] {
  return RELAY_STATUSES.some((status) => status === value);
}
