/**
 * Who wants to hear that a store changed (the web UI's live feed). Emitting with nobody listening
 * costs one size check, so a store pays nothing while no browser watches.
 */
export class ChangeListeners {
  readonly #listeners = new Set<() => void>();

  /** Calls `listener` after every change from now on; returns the function that stops it. */
  add(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** How many listen now. */
  get size(): number {
    return this.#listeners.size;
  }

  emit(): void {
    if (this.#listeners.size === 0) return;
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A listener must never break a store write.
      }
    }
  }
}
