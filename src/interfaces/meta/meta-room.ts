import { room, type Room } from '../../core/room.ts';
import type { MetaDeps } from './meta-deps.ts';
import { metaRoutes } from './meta-routes.ts';

/** /health, /openapi.yaml and /docs at the origin's root: open to everyone, no middleware. */
export function metaRoom(deps: MetaDeps): Room<MetaDeps> {
  return room({ name: 'meta', deps, routes: { root: metaRoutes } });
}
