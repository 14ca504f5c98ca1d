import { InternalError } from '../../base/errors/internal-error.ts';

/** A stateful part's report of one change it made, for the write-ahead journal (see {@link ChangeFeed}). */
export type ChangeReporter = (change: unknown) => void;

/** One change, with the stateful part that made it (the part's name in the state registry). */
export interface PartChange {
  part: string;
  change: unknown;
}

/** Where reported changes go: the state file's write-ahead journal. */
export interface ChangeSink {
  /**
   * One atomic unit of changes, in the order they were made. Called synchronously, as the
   * changes are made: the sink must copy (encode) what it keeps, since callers may reuse objects.
   */
  write(changes: readonly PartChange[]): void;
  /** Resolves once every unit written so far is durable; rejects when it cannot be made so. */
  durable(): Promise<void>;
  /** True when units were written that are not durable yet. */
  readonly pending: boolean;
}

const DURABLE: Promise<void> = Promise.resolve();

/**
 * The emulator's stream of state changes. Every stateful part reports each change it makes, at the
 * moment it makes it, through its reporter: records inserted and updated, history filed, token
 * accounts indexed, the accounts and clock the ledger wrote, queue settings, and each part's
 * clears. With a sink attached (a state file), each change becomes a journal entry and replaying
 * them in order redoes the outcomes exactly; with none (the default, in process) reporting costs
 * one branch.
 *
 * Changes made in one synchronous {@link unit} are written as one atomic entry: a processed
 * transaction's ledger writes, record, history and token-account entries land together or not at
 * all.
 */
export class ChangeFeed {
  #sink: ChangeSink | null = null;
  #unit: PartChange[] | null = null;
  readonly #watchers = new Set<() => void>();

  /** True while a sink records changes: parts skip building a report nobody keeps. */
  get recording(): boolean {
    return this.#sink !== null;
  }

  /** True when changes were reported that are not durable yet. */
  get pending(): boolean {
    return this.#sink?.pending ?? false;
  }

  attach(sink: ChangeSink): void {
    if (this.#sink) throw new InternalError('CHANGE_SINK_ATTACHED', {});
    this.#sink = sink;
  }

  detach(): void {
    this.#sink = null;
  }

  /**
   * Calls `watcher` after each change reported from now on (the web UI's live updates), until the
   * returned function is called. Watching does not make the emulator record anything: parts that
   * build their report only while {@link recording} (the ledger's account writes) stay silent.
   */
  watch(watcher: () => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** The reporter of one part: changes it reports are attributed to `part`. */
  reporter(part: string): ChangeReporter {
    return (change) => {
      if (this.#watchers.size > 0) this.#tellWatchers();
      if (this.#sink === null) return;
      if (this.#unit) this.#unit.push({ part, change });
      else this.#sink.write([{ part, change }]);
    };
  }

  /** Runs `work` synchronously; every change reported meanwhile is written as one atomic unit. */
  unit<T>(work: () => T): T {
    if (this.#sink === null || this.#unit !== null) return work();
    this.#unit = [];
    try {
      return work();
    } finally {
      const changes = this.#unit;
      this.#unit = null;
      if (changes.length > 0) this.#sink?.write(changes);
    }
  }

  #tellWatchers(): void {
    for (const watcher of this.#watchers) {
      try {
        watcher();
      } catch {
        // A watcher must never break a change.
      }
    }
  }

  /** Resolves once every change reported so far is durable (at once without a sink). */
  durable(): Promise<void> {
    return this.#sink?.pending ? this.#sink.durable() : DURABLE;
  }
}
