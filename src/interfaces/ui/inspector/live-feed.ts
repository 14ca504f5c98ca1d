import type { EventBus } from '../../../base/events/emitter.ts';
import type { Exchange } from '../../../base/http/exchange.ts';

/** The shortest time between two change events: a busy emulator sends at most four a second. */
export const CHANGE_INTERVAL_MS = 250;

/** The events the feed hears: state changes (src/domain/state/change-feed.ts) and exchanges (src/core/observe-exchanges.ts). */
export interface LiveFeedEvents {
  'state-change': unknown;
  exchange: Exchange;
  /** A test wallet's request, kept for the UI (its id). */
  'wallet-request': number;
}

/**
 * Tells the web UI's open event streams that what it shows may have changed: a part reported a
 * state change (a relay was recorded, processed, finalized; a legacy record moved; history filed;
 * the queue paused), or a request that can change something was answered (a relay, refused or not;
 * a control). Changes are coalesced to one event per {@link CHANGE_INTERVAL_MS}. It listens to the
 * emulator's emitter only while a stream is open, so an emulator nobody watches pays nothing for it.
 */
export class LiveFeed {
  readonly #events: Pick<EventBus<LiveFeedEvents>, 'on'>;
  readonly #subscribers = new Set<() => void>();
  #detach: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastSent = 0;

  constructor(events: Pick<EventBus<LiveFeedEvents>, 'on'>) {
    this.#events = events;
  }

  /** Calls `onChange` after changes (coalesced) until the returned function is called. */
  subscribe(onChange: () => void): () => void {
    this.#subscribers.add(onChange);
    if (this.#subscribers.size === 1) this.#attach();
    return () => {
      if (!this.#subscribers.delete(onChange) || this.#subscribers.size > 0) return;
      for (const detach of this.#detach) detach();
      this.#detach = [];
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = null;
    };
  }

  get subscribers(): number {
    return this.#subscribers.size;
  }

  #attach(): void {
    const changed = () => this.#schedule();
    this.#detach = [
      this.#events.on('state-change', changed),
      this.#events.on('wallet-request', changed),
      this.#events.on('exchange', (exchange) => {
        if (mayChangeSomething(exchange)) changed();
      }),
    ];
  }

  #schedule(): void {
    if (this.#timer) return;
    const wait = Math.max(0, this.#lastSent + CHANGE_INTERVAL_MS - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#lastSent = Date.now();
      for (const subscriber of this.#subscribers) subscriber();
    }, wait);
    this.#timer.unref?.();
  }
}

/**
 * Reads change nothing: GET, HEAD and preflights, and JSON-RPC calls other than the two that
 * write (sendTransaction, requestAirdrop). Everything else may: relays, refused relays, controls.
 */
function mayChangeSomething(exchange: Exchange): boolean {
  const method = exchange.request.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  if (exchange.api !== 'rpc') return true;
  const text = exchange.vars.bodyText ?? '';
  return text.includes('sendTransaction') || text.includes('requestAirdrop');
}
