import { room, type Room } from '../../core/room.ts';
import type { CurrentDeps } from './current-deps.ts';
import { apiKeyCheck, rateLimit } from './current-middleware.ts';
import { currentRoutes } from './current-routes.ts';

/** The current interface (spec 4.1), under the base URL: its routes behind the API key (or bearer Token) and the rate limit. */
export function currentRoom(deps: CurrentDeps): Room<CurrentDeps> {
  return room({ name: 'current', deps, middleware: deps.rateLimiter ? [apiKeyCheck, rateLimit] : [apiKeyCheck], routes: { base: currentRoutes } });
}
