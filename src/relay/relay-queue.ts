import { RelayError } from '../errors/relay-error.ts';

export interface QueueOptions {
  /** `auto` submits in the background after each answer; `manual` holds jobs until step() or flush(). Default `auto`. */
  mode: 'auto' | 'manual';
  /** Added wait before each background submission, in ms. Default 0. */
  latencyMs: number;
  /** Most jobs waiting at once; past it, relays answer 503 QUEUE_FULL. Default 10,000. */
  maxPending: number;
}

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = { mode: 'auto', latencyMs: 0, maxPending: 10_000 };

export interface QueueState {
  paused: boolean;
  pending: number;
  latencyMs: number;
}

/**
 * A FIFO of submissions, processed one at a time, that tests can pause, step, flush and settle.
 * The worker reports failures itself; a job never leaves the queue unaccounted for.
 */
export class RelayQueue<J extends { id: string }> {
  readonly #worker: (job: J) => Promise<void>;
  readonly #jobs: J[] = [];
  readonly #options: QueueOptions;
  #paused: boolean;
  #running: Promise<void> | null = null;

  constructor(worker: (job: J) => Promise<void>, options: QueueOptions) {
    this.#worker = worker;
    this.#options = { ...options };
    this.#paused = options.mode === 'manual';
  }

  enqueue(job: J): void {
    if (this.#jobs.length >= this.#options.maxPending) {
      throw new RelayError('QUEUE_FULL', `The relay queue holds ${this.#jobs.length} transactions, its limit.`, { retryAfter: 1 });
    }
    this.#jobs.push(job);
    this.#kick();
  }

  state(): QueueState {
    return { paused: this.#paused, pending: this.#jobs.length, latencyMs: this.#options.latencyMs };
  }

  setLatency(latencyMs: number): void {
    this.#options.latencyMs = Math.max(0, latencyMs);
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#kick();
  }

  /** Processes the next job now, paused or not. Resolves with the ids processed (zero or one). */
  async step(): Promise<string[]> {
    await this.#running;
    const job = this.#jobs.shift();
    if (!job) return [];
    await this.#run(job);
    return [job.id];
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
        throw new Error(`The relay queue is paused with ${this.#jobs.length} transaction(s) waiting: resume(), step() or flush() it first.`);
      }
      this.#kick();
    }
  }

  /** Forgets every waiting job (reset). */
  clear(): void {
    this.#jobs.length = 0;
  }

  #kick(): void {
    if (this.#running || this.#paused || this.#jobs.length === 0) return;
    this.#running = this.#drain().finally(() => {
      this.#running = null;
    });
  }

  async #drain(): Promise<void> {
    while (!this.#paused && this.#jobs.length > 0) {
      // Each submission starts on a later turn of the event loop than the answer that queued it, so
      // the answer is out (on a socket, written) before the ledger works, however fast the engine:
      // a microtask would let a synchronous engine (LiteSVM) run first.
      if (this.#options.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#options.latencyMs));
      else await new Promise((resolve) => setImmediate(resolve));
      if (this.#paused) return;
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
    }
  }
}
