import type { Call } from '../base/http/router.ts';
import type { Middleware } from './room.ts';

/**
 * The middleware around a handler, as one function (hono's compose, done once when mounting, not
 * per request): the first middleware runs first and its `next` calls the second, and so on to the
 * handler. With no middleware it is the handler itself.
 */
export function compose<D>(middleware: readonly Middleware<D>[], handler: (call: Call<D>) => Promise<Response>): (call: Call<D>) => Promise<Response> {
  let run = handler;
  for (let index = middleware.length - 1; index >= 0; index -= 1) {
    const outer = middleware[index]!;
    const inner = run;
    run = (call) => outer(call, () => inner(call));
  }
  return run;
}
