import { InternalError } from '../../base/errors/internal-error.ts';

/**
 * A part of the emulator that holds state: it can be snapshotted (state file), restored (start
 * from a state file), reset (back to the fixtures) and, when it reports its changes to the change
 * feed, replayed from the state file's write-ahead journal.
 */
export interface StatefulPart {
  /** Unique key of this part in a snapshot, and of its changes in the journal. */
  name: string;
  /** Keys this part had in state files an earlier version wrote: read as `name`, never written. */
  formerNames?: readonly string[];
  /**
   * This part's data. The synchronous part of the call must capture the state (the state file
   * takes every part's snapshot in one tick, at one point of the journal); a part that must read
   * asynchronously (the ledger) may see later changes too, which replaying the journal redoes.
   */
  snapshot(): unknown | Promise<unknown>;
  restore(data: unknown): void | Promise<void>;
  reset(): void | Promise<void>;
  /**
   * Redoes, in order, the changes this part reported (see ChangeFeed), on top of a restored
   * snapshot. Each change is an outcome (a state written, an entry filed, a clear), never a request
   * to run again, so that replaying gives the same state whatever the engine and the slot rule;
   * and replaying a change the snapshot already holds changes nothing. Parts that report no
   * changes have none.
   */
  replay?(changes: readonly unknown[]): void | Promise<void>;
}

/** Every stateful part, in registration order (restore, reset and replay run in that order). */
export class StateRegistry {
  readonly #parts = new Map<string, StatefulPart>();
  /** Every key a part is known by, former names included. */
  readonly #byKey = new Map<string, StatefulPart>();

  register(part: StatefulPart): void {
    for (const key of [part.name, ...(part.formerNames ?? [])]) {
      if (this.#byKey.has(key)) throw new InternalError('STATE_PART_DUPLICATE', { part: key });
      this.#byKey.set(key, part);
    }
    this.#parts.set(part.name, part);
  }

  /** The part with this key in a snapshot or a journal: its name, or one it had before. */
  get(key: string): StatefulPart | undefined {
    return this.#byKey.get(key);
  }

  parts(): StatefulPart[] {
    return [...this.#parts.values()];
  }
}
