import { room, type Room } from '../../core/room.ts';
import { adminOnly, type AdminGuard } from './admin-guard.ts';
import type { TestControlMethods } from './control-types.ts';
import type { ControlsDeps } from './controls-deps.ts';
import { controlRoutes } from './routes/control-routes.ts';
import { stateRoutes } from './routes/state-routes.ts';

/**
 * The test controls at `/__emulator/…`: every route behind the admin guard (the token, on a
 * non-loopback bind). Their browser checks and closed CORS run earlier, in the assembly's CORS
 * middleware, which asks the same guard (a preflight is refused before any route is matched).
 */
export function controlsRoom(deps: ControlsDeps, options: { controls: TestControlMethods; guard: AdminGuard }): Room<ControlsDeps> {
  return room({
    name: 'emulator',
    deps,
    middleware: [adminOnly(options.guard)],
    routes: { root: [...controlRoutes(options.controls), ...stateRoutes(options.controls)] },
  });
}
