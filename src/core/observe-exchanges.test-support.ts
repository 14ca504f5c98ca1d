import { Emitter } from '../base/events/emitter.ts';
import type { ExchangeObserver, FetchHandler } from '../base/http/exchange.ts';
import type { Call } from '../base/http/router.ts';
import { compose } from './compose.ts';
import { createCall } from './create-fetch.ts';
import { observeExchanges, type ExchangeEvents } from './observe-exchanges.ts';

/** A stand-in for the core: `handle` answers every request, observed as the emulator observes its core (outermost middleware). */
export function observed(
  handle: (call: Call) => Promise<Response>,
  options: { observers: ExchangeObserver[]; wantsBodies(request: Request): boolean },
): FetchHandler {
  const events = new Emitter<ExchangeEvents>();
  for (const observer of options.observers) events.on('exchange', observer);
  const run = compose([observeExchanges({ events, wantsBodies: options.wantsBodies })], handle);
  return (request, context = {}) => run(createCall(request, context, undefined, 64 * 1024));
}
