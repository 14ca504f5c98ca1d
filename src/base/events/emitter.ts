/**
 * A typed event emitter: one map of event names to payloads, listeners added and removed by the
 * function `on` returns (as msw's `Emitter<LifeCycleEventsMap>`). Emitting to no listener costs one
 * map look-up, so a part can emit unconditionally; a part that must build an expensive payload asks
 * {@link listening} first.
 *
 * A listener that throws does not stop the others, nor the emitter's caller: what emits (the ledger,
 * a store, the core answering a request) must never fail because of who listens. The error is
 * handed to `onListenerError` (default: written to stderr once per event name), so it is not lost.
 */
export class Emitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<(payload: never) => void>>();
  readonly #onListenerError: (type: keyof Events, error: unknown) => void;
  readonly #reported = new Set<keyof Events>();

  constructor(options: { onListenerError?: (type: keyof Events, error: unknown) => void } = {}) {
    this.#onListenerError =
      options.onListenerError ??
      ((type, error) => {
        if (this.#reported.has(type)) return;
        this.#reported.add(type);
        console.error(`relay-emulator: a listener of "${String(type)}" failed (later failures of its listeners are not reported)`, error);
      });
  }

  /** Calls `listener` with every `type` event from now on, until the returned function is called. */
  on<K extends keyof Events>(type: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  }

  /** True when something listens to `type`: a part skips building a payload nobody hears. */
  listening(type: keyof Events): boolean {
    return (this.#listeners.get(type)?.size ?? 0) > 0;
  }

  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    const set = this.#listeners.get(type);
    if (!set || set.size === 0) return;
    for (const listener of set) {
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (error) {
        this.#onListenerError(type, error);
      }
    }
  }
}

/** What a part that only emits needs of an emitter (the ledger, the change feed, the core). */
export interface EventSink<Events extends object> {
  listening(type: keyof Events): boolean;
  emit<K extends keyof Events>(type: K, payload: Events[K]): void;
}

/** What a part that emits and listens needs of an emitter. */
export interface EventBus<Events extends object> extends EventSink<Events> {
  on<K extends keyof Events>(type: K, listener: (payload: Events[K]) => void): () => void;
}
