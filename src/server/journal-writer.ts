import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ChangeSink, PartChange } from '../state/change-feed.ts';
import { journalLine, segmentPath } from './journal-segments.ts';

export interface JournalWriterOptions {
  /** The state file whose journal this is (segments are named after it). */
  statePath: string;
  /** The segment to append to first: a new one, never one that was replayed. */
  segment: number;
  /**
   * fdatasync each group commit (default true): an acknowledged change then survives a power
   * loss too. false only writes, which survives the process crashing, not the machine.
   */
  fsync?: boolean;
}

interface Batch {
  segment: number;
  lines: string[];
}

interface Waiter {
  upTo: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The write-ahead journal's appender, as the change feed's sink. write() only queues the line (it
 * is called inside the change); a flush loop then writes every queued line at once and fsyncs
 * once — group commit — so that 32 clients waiting for durability share one fsync instead of
 * paying one each. durable() resolves once everything written before the call is on disk.
 *
 * rotate() starts a new segment at the current point: the state file snapshots right after and,
 * once the snapshot is durable, deletes the segments before it.
 */
export class JournalWriter implements ChangeSink {
  readonly #statePath: string;
  readonly #fsync: boolean;
  #segment: number;
  #batches: Batch[];
  readonly #handles = new Map<number, Promise<FileHandle>>();
  #appended = 0;
  #flushed = 0;
  #waiters: Waiter[] = [];
  #flushing: Promise<void> | null = null;
  #failure: Error | null = null;
  #bytesInSegment = 0;
  #commits = 0;

  constructor(options: JournalWriterOptions) {
    this.#statePath = options.statePath;
    this.#fsync = options.fsync ?? true;
    this.#segment = options.segment;
    this.#batches = [{ segment: options.segment, lines: [] }];
  }

  /** The segment being appended to. */
  get segment(): number {
    return this.#segment;
  }

  /** Bytes appended to the current segment (what a snapshot would compact away). */
  get bytesInSegment(): number {
    return this.#bytesInSegment;
  }

  /** Group commits so far: one write (and one fsync) per segment touched, for every unit queued meanwhile. */
  get commits(): number {
    return this.#commits;
  }

  get pending(): boolean {
    return this.#flushed < this.#appended || this.#failure !== null;
  }

  write(changes: readonly PartChange[]): void {
    const line = journalLine(changes);
    this.#batches.at(-1)!.lines.push(line);
    this.#bytesInSegment += line.length;
    this.#appended += 1;
    this.#schedule();
  }

  durable(): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#flushed >= this.#appended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ upTo: this.#appended, resolve, reject });
      this.#schedule();
    });
  }

  /** Starts the next segment: lines written from now on go there. Returns its number. */
  rotate(): number {
    this.#segment += 1;
    this.#batches.push({ segment: this.#segment, lines: [] });
    this.#bytesInSegment = 0;
    return this.#segment;
  }

  /** Writes what is queued, then closes every file. */
  async close(): Promise<void> {
    await this.durable().catch(() => undefined);
    await this.#flushing;
    for (const handle of this.#handles.values()) await (await handle).close().catch(() => undefined);
    this.#handles.clear();
  }

  #schedule(): void {
    if (this.#flushing || this.#failure) return;
    this.#flushing = this.#flushLoop().finally(() => {
      this.#flushing = null;
      // Lines written while the last fsync ran start the next round.
      if (this.#flushed < this.#appended && !this.#failure) this.#schedule();
    });
  }

  async #flushLoop(): Promise<void> {
    // Let the current turn of the event loop finish queuing: one write and one fsync for all of it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.#flushed < this.#appended) {
        const batches = this.#batches;
        const upTo = this.#appended;
        this.#batches = [{ segment: this.#segment, lines: [] }];
        for (const batch of batches) {
          if (batch.lines.length === 0) continue;
          const handle = await this.#handle(batch.segment);
          await handle.appendFile(batch.lines.join(''));
          if (this.#fsync) await handle.datasync();
        }
        // Segments before the current one are complete: their files can close.
        for (const [segment, handle] of this.#handles) {
          if (segment < this.#segment) {
            this.#handles.delete(segment);
            await (await handle).close();
          }
        }
        this.#flushed = upTo;
        this.#commits += 1;
        this.#wake();
      }
    } catch (error) {
      // Nothing written from here on can be called durable: every waiter, now and later, hears it.
      this.#failure = error instanceof Error ? error : new Error(String(error));
      for (const waiter of this.#waiters) waiter.reject(this.#failure);
      this.#waiters = [];
    }
  }

  #wake(): void {
    const still: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.upTo <= this.#flushed) waiter.resolve();
      else still.push(waiter);
    }
    this.#waiters = still;
  }

  #handle(segment: number): Promise<FileHandle> {
    let handle = this.#handles.get(segment);
    if (!handle) {
      handle = (async () => {
        const file = await open(segmentPath(this.#statePath, segment), 'a');
        // The new file's name must survive a power loss too.
        if (this.#fsync) await syncDirectory(dirname(this.#statePath));
        return file;
      })();
      this.#handles.set(segment, handle);
    }
    return handle;
  }
}

/** fsyncs a directory, so that a file created or renamed in it stays. */
export async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
