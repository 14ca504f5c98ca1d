import { room, type Room } from '../../core/room.ts';
import { adminOnly, type AdminGuard } from '../controls/admin-guard.ts';
import type { RequestJournal } from '../controls/request-journal.ts';
import type { LiveFeed } from './inspector/live-feed.ts';
import type { WalletLog } from './inspector/wallet-log.ts';
import { inspectorRoutes } from './inspector-routes.ts';
import type { UiDeps } from './ui-deps.ts';
import { uiRoutes } from './ui-routes.ts';

/**
 * The web UI: its page and assets at the origin's root (open: they hold nothing), and what it reads
 * under `/__emulator` (behind the admin guard, as every control is).
 */
export function uiRoom(deps: UiDeps, options: { journal: RequestJournal; feed: LiveFeed; wallets: WalletLog; guard: AdminGuard }): Room<UiDeps> {
  return room({
    name: 'emulator',
    deps,
    middleware: [adminOnly(options.guard)],
    routes: { root: [...inspectorRoutes(options), ...uiRoutes] },
  });
}
