import type { EventBus } from '../../base/events/emitter.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

/** A stateful part's report of one change it made, for the write-ahead journal (see {@link ChangeFeed}). */
export type ChangeReporter = (change: unknown) => void;

/** One change, with the stateful part that made it (the part's name in the state registry). */
export interface PartChange {
  part: string;
  change: unknown;
}

/** What a state file's journal gives the feed: it hears each unit of changes, and says when they are durable. */
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

/** The event the feed emits: one atomic unit of changes. */
export interface StateChangeEvents {
  'state-change': readonly PartChange[];
}

const DURABLE: Promise<void> = Promise.resolve();

/**
 * The emulator's stream of state changes. Every stateful part reports each change it makes, at the
 * moment it makes it, through its reporter: records inserted and updated, history filed, token
 * accounts indexed, the accounts and clock the ledger wrote, queue settings, and each part's
 * clears. The feed emits them as `state-change` events of the emulator's emitter
 * (src/domain/events.ts): the state file's write-ahead journal hears them (replaying them in order
 * redoes the outcomes exactly), and so does the web UI's live feed while a page watches. With
 * nobody listening (the default, in process) reporting costs one branch.
 *
 * Changes made in one synchronous {@link unit} are emitted as one atomic unit: a processed
 * transaction's ledger writes, record, history and token-account entries land together or not at
 * all.
 */
export class ChangeFeed {
  readonly #events: EventBus<StateChangeEvents>;
  #sink: { durability: ChangeSink; unlisten: () => void } | null = null;
  #unit: PartChange[] | null = null;

  constructor(events: EventBus<StateChangeEvents>) {
    this.#events = events;
  }

  /** True while someone hears the changes: parts skip building a report nobody keeps. */
  get recording(): boolean {
    return this.#events.listening('state-change');
  }

  /** True when changes were reported that are not durable yet. */
  get pending(): boolean {
    return this.#sink?.durability.pending ?? false;
  }

  /** Makes `sink` hear every unit from now on (a `state-change` listener) and decide durability; one sink at a time. */
  attach(sink: ChangeSink): void {
    if (this.#sink) throw new InternalError('CHANGE_SINK_ATTACHED', {});
    this.#sink = { durability: sink, unlisten: this.#events.on('state-change', (changes) => sink.write(changes)) };
  }

  detach(): void {
    this.#sink?.unlisten();
    this.#sink = null;
  }

  /** The reporter of one part: changes it reports are attributed to `part`. */
  reporter(part: string): ChangeReporter {
    return (change) => {
      if (this.#unit) this.#unit.push({ part, change });
      else if (this.#events.listening('state-change')) this.#events.emit('state-change', [{ part, change }]);
    };
  }

  /** Runs `work` synchronously; every change reported meanwhile is emitted as one atomic unit. */
  unit<T>(work: () => T): T {
    if (this.#unit !== null || !this.#events.listening('state-change')) return work();
    this.#unit = [];
    try {
      return work();
    } finally {
      const changes = this.#unit;
      this.#unit = null;
      if (changes.length > 0) this.#events.emit('state-change', changes);
    }
  }

  /** Resolves once every change reported so far is durable (at once without a sink). */
  durable(): Promise<void> {
    return this.#sink?.durability.pending ? this.#sink.durability.durable() : DURABLE;
  }
}
