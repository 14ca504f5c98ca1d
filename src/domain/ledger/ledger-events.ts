import type { LedgerTransaction } from './ledger-types.ts';

/**
 * What the ledger tells whoever listens (PubSub's logs and program subscriptions), after the
 * change is made: a transaction it executed and that landed in a block, with the addresses it may
 * have written; or accounts written directly (test controls, restore).
 */
export type LedgerEvent = { kind: 'transaction'; transaction: LedgerTransaction; written: string[] } | { kind: 'accounts'; written: string[] };

export type LedgerListener = (event: LedgerEvent) => void;

/** The ledger's listeners. Telling them costs one branch when nobody listens; a listener that throws is ignored. */
export class LedgerEvents {
  readonly #listeners = new Set<LedgerListener>();

  /** Calls `listener` for every event from now on, until the returned function is called. */
  listen(listener: LedgerListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listening(): boolean {
    return this.#listeners.size > 0;
  }

  tell(event: LedgerEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener must never break the ledger.
      }
    }
  }
}
