import { RelayError } from '../../base/errors/relay-error.ts';
import type { ChangeReporter } from '../state/change-feed.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

export interface QueueOptions {
  /** `auto` submits in the background after each answer; `manual` holds jobs until step() or flush(). Default `auto`. */
  mode: 'auto' | 'manual';
  /** Added wait before each background submission, in ms. Default 0. */
  latencyMs: number;
  /** Most jobs waiting at once; past it, relays answer 503 QUEUE_FULL. Default 10,000. */
  maxPending: number;
}

/** The longest latency: the longest delay a Node timer keeps (a longer one fires at once). The contract states it. */
export const MAX_QUEUE_LATENCY_MS = 2 ** 31 - 1;

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = { mode: 'auto', latencyMs: 0, maxPending: 10_000 };

export interface QueueState {
  paused: boolean;
  pending: number;
  latencyMs: number;
}

/** The queue's settings, as reported to the change feed (part `queue`) whenever a test changes them. */
export interface QueueSettings {
  paused: boolean;
  latencyMs: number;
}

/**
 * A FIFO of submissions, processed one at a time, that tests can pause, step, flush and settle.
 * The worker reports failures itself; a job never leaves the queue unaccounted for. A job is
 * queued once: while it waits or runs, enqueueing its id again does nothing.
 *
 * Pausing is a test's setting (reported, saved in the state file); holding is the emulator's own
 * short stop while it resets, snapshots or restores, and is neither.
 */
export class RelayQueue<J extends { id: string }> {
  readonly #worker: (job: J) => Promise<void>;
  readonly #jobs: J[] = [];
  /** Ids of the jobs waiting or running. */
  readonly #ids = new Set<string>();
  readonly #options: QueueOptions;
  readonly #report: ChangeReporter;
  #paused: boolean;
  #holds = 0;
  #released: (() => void)[] = [];
  #running: Promise<void> | null = null;

  /** `report` hears every change of the settings (default: nobody). */
  constructor(worker: (job: J) => Promise<void>, options: QueueOptions, report: ChangeReporter = () => undefined) {
    if (!Number.isSafeInteger(options.latencyMs) || options.latencyMs < 0 || options.latencyMs > MAX_QUEUE_LATENCY_MS) {
      throw new RangeError(`queue.latencyMs must be an integer from 0 to ${MAX_QUEUE_LATENCY_MS}; got ${options.latencyMs}`);
    }
    this.#worker = worker;
    this.#options = { ...options };
    this.#paused = options.mode === 'manual';
    this.#report = report;
  }

  enqueue(job: J): void {
    if (this.#ids.has(job.id)) return;
    if (this.#jobs.length >= this.#options.maxPending) {
      throw RelayError.of('QUEUE_FULL', { retryAfter: 1, queued: this.#jobs.length });
    }
    this.#jobs.push(job);
    this.#ids.add(job.id);
    this.#kick();
  }

  state(): QueueState {
    return { paused: this.#paused, pending: this.#jobs.length, latencyMs: this.#options.latencyMs };
  }

  setLatency(latencyMs: number): void {
    this.#options.latencyMs = Math.max(0, latencyMs);
    this.#reportSettings();
  }

  pause(): void {
    this.#paused = true;
    this.#reportSettings();
  }

  resume(): void {
    this.#paused = false;
    this.#reportSettings();
    this.#kick();
  }

  /** Stops background processing until as many release() calls, without touching the paused setting. */
  hold(): void {
    this.#holds += 1;
  }

  release(): void {
    if (this.#holds === 0) return;
    this.#holds -= 1;
    if (this.#holds > 0) return;
    const waiting = this.#released;
    this.#released = [];
    for (const wake of waiting) wake();
    this.#kick();
  }

  /**
   * Runs `work` with no job in the ledger: holds the queue, waits for the running job (the
   * drain's, a step()'s or a flush()'s) to be recorded, runs `work`, releases. Every control that
   * changes state as a whole (reset, snapshot, restore, warp, expiring blockhashes) runs so.
   */
  async whileHeld<T>(work: () => Promise<T>): Promise<T> {
    this.hold();
    try {
      await this.idle();
      return await work();
    } finally {
      this.release();
    }
  }

  /** Resolves once no job is running (jobs may still wait): neither the background drain's, nor a step()'s or flush()'s. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Redoes reported settings (journal replay), reporting nothing. */
  replay(changes: readonly unknown[]): void {
    const last = changes.at(-1) as QueueSettings | undefined;
    if (!last) return;
    this.#options.latencyMs = last.latencyMs;
    this.#paused = last.paused;
    this.#kick();
  }

  /**
   * Processes the next job now, paused or not. Resolves with the ids processed (zero or one). It
   * runs as the queue's running job, so that idle() waits for it, and never while the queue is
   * held: a control in progress (reset, snapshot, restore, close, warp) finishes first.
   */
  async step(): Promise<string[]> {
    for (;;) {
      await this.idle();
      if (this.#holds > 0) {
        await new Promise<void>((resolve) => this.#released.push(resolve));
        continue;
      }
      // Another step or the background drain may have taken the slot while this one waited.
      if (this.#running) continue;
      const job = this.#jobs.shift();
      if (!job) return [];
      const run = this.#run(job);
      this.#running = run.finally(() => {
        this.#running = null;
        this.#kick();
      });
      await this.#running;
      return [job.id];
    }
  }

  /** Processes every waiting job now, ignoring pause and latency. */
  async flush(): Promise<string[]> {
    const done: string[] = [];
    for (;;) {
      const [id] = await this.step();
      if (id === undefined) return done;
      done.push(id);
    }
  }

  /** Resolves when nothing is waiting or running. Rejects when paused with jobs waiting, rather than hang. */
  async settle(): Promise<void> {
    for (;;) {
      await this.#running;
      if (this.#jobs.length === 0) return;
      if (this.#paused) {
        throw new InternalError('QUEUE_PAUSED', { waiting: this.#jobs.length });
      }
      if (this.#holds > 0) await new Promise<void>((resolve) => this.#released.push(resolve));
      this.#kick();
    }
  }

  /** Forgets every waiting job (reset). */
  clear(): void {
    for (const job of this.#jobs) this.#ids.delete(job.id);
    this.#jobs.length = 0;
  }

  #reportSettings(): void {
    this.#report({ paused: this.#paused, latencyMs: this.#options.latencyMs } satisfies QueueSettings);
  }

  #kick(): void {
    if (this.#running || this.#paused || this.#holds > 0 || this.#jobs.length === 0) return;
    this.#running = this.#drain().finally(() => {
      this.#running = null;
    });
  }

  async #drain(): Promise<void> {
    while (!this.#paused && this.#holds === 0 && this.#jobs.length > 0) {
      // Each submission starts on a later turn of the event loop than the answer that queued it, so
      // the answer is out (on a socket, written) before the ledger works, however fast the engine:
      // a microtask would let a synchronous engine (LiteSVM) run first.
      if (this.#options.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#options.latencyMs));
      else await new Promise((resolve) => setImmediate(resolve));
      if (this.#paused || this.#holds > 0) return;
      const job = this.#jobs.shift();
      if (job) await this.#run(job);
    }
  }

  async #run(job: J): Promise<void> {
    try {
      await this.#worker(job);
    } catch (error) {
      // The worker records its own failures; reaching here is a bug worth seeing, not a crash.
      console.error(`relay-emulator: queue worker failed for ${job.id}`, error);
    } finally {
      this.#ids.delete(job.id);
    }
  }
}
