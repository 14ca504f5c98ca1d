import { room, type Room } from '../../core/room.ts';
import type { LegacyDeps } from './legacy-deps.ts';
import { legacyRoutes } from './routes/legacy-routes.ts';

/**
 * The legacy interface (Kinetic's, routed by environment and index), under the base URL. No API
 * key, no middleware: its routes check the SDK's client headers themselves (client-guard.ts).
 * Mounted before the current interface: two routes share their paths and claim bodies that name an
 * `environment`.
 */
export function legacyRoom(deps: LegacyDeps): Room<LegacyDeps> {
  return room({ name: 'legacy', deps, routes: { base: legacyRoutes } });
}
