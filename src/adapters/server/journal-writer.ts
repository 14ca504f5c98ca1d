// Over 250 lines: one state machine (the queue, the flush loop, segment rotation, the waiters) over one open segment, read together.
import { constants } from 'node:fs';
import { link, open, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ChangeSink, PartChange } from '../../domain/state/change-feed.ts';
import { createdHeader, HEADER_BYTES, headerText, journalLine } from './journal-format.ts';
import { segmentPath } from './journal-segments.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

/** A segment is opened to write as every file of ours is: never through a link (decision 0010). */
const READ_WRITE_NO_LINK = constants.O_RDWR | constants.O_NOFOLLOW;

export interface JournalWriterOptions {
  /** The state file whose journal this is (segments are named after it). */
  statePath: string;
  /** The segment to append to first: a new one, never one that was replayed. */
  segment: number;
  /**
   * The segment on disk that `segment` follows (the last one replayed, when it has a header): closed
   * with `final=1` once `segment` exists and before anything in it is durable, so that the journal
   * records that it goes on, and a start that finds `segment` gone refuses instead of losing it.
   */
  follows?: number;
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

/** An open segment and the length it was written to (writes are positional: the header is rewritten in place). */
interface OpenSegment {
  file: FileHandle;
  length: number;
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
 * Each segment is created, with its header (journal-format.ts), as soon as it is started — before a
 * snapshot can name it — and one after another, so that a missing segment is damage. After each
 * fsync the header's `committed` is rewritten (no fsync of its own: the next one carries it), before
 * anyone is told; a segment left for the next is closed with `final=1` and synced.
 *
 * rotate() starts a new segment at the current point: the state file snapshots right after and,
 * once the snapshot is durable (durable() waits for the new segment's file too), deletes the
 * segments before it.
 */
export class JournalWriter implements ChangeSink {
  readonly #statePath: string;
  readonly #fsync: boolean;
  #segment: number;
  #batches: Batch[];
  readonly #handles = new Map<number, Promise<OpenSegment>>();
  #created: Promise<unknown> = Promise.resolve();
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
    this.#create(options.segment);
    if (options.follows !== undefined) this.#closeFollowed(options.follows);
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

  /** Resolves once everything written before the call is on disk, and every segment started so far exists. */
  async durable(): Promise<void> {
    await this.#created;
    if (this.#failure) throw this.#failure;
    if (this.#flushed >= this.#appended) return;
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
    this.#create(this.#segment);
    return this.#segment;
  }

  /** Writes what is queued, then closes every file. */
  async close(): Promise<void> {
    await this.durable().catch(() => undefined);
    await this.#flushing;
    await this.#created;
    for (const handle of this.#handles.values()) await (await handle.catch(() => null))?.file.close().catch(() => undefined);
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
          const open = await this.#handle(batch.segment);
          const bytes = Buffer.from(batch.lines.join(''));
          await open.file.write(bytes, 0, bytes.length, open.length);
          open.length += bytes.length;
          if (this.#fsync) await open.file.datasync();
          // Synced: the header may say so (after the fact, so it never claims what a crash could lose).
          await writeHeader(open, false);
        }
        // Segments before the current one are complete: closed whole, synced, their files closed;
        // `final=1` says the next one exists, so only once the current one's file does.
        await this.#handle(this.#segment);
        const waiting = new Set(this.#batches.filter((batch) => batch.lines.length > 0).map((batch) => batch.segment));
        for (const [segment, handle] of this.#handles) {
          // (Lines for it may have been queued while this round wrote: the next round writes them, then closes it.)
          if (segment < this.#segment && !waiting.has(segment)) {
            this.#handles.delete(segment);
            const open = await handle;
            await writeHeader(open, true);
            if (this.#fsync) await open.file.datasync();
            await open.file.close();
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

  /** Creates a segment's file with its header, after the one before it (a gap would read as a lost segment). */
  #create(segment: number): void {
    const previous = this.#created;
    const created = (async () => {
      await previous;
      // Written whole beside its name, then linked to it (never over one): a segment never exists
      // without its header, so an empty or headless one is damage, not a crash mid-creation.
      const path = segmentPath(this.#statePath, segment);
      const temporary = `${path}.tmp`;
      // Made exclusively (never through a link planted at the name); one a crash left is removed first.
      await rm(temporary, { force: true });
      const draft = await open(temporary, 'wx');
      try {
        await draft.writeFile(createdHeader());
        if (this.#fsync) await draft.datasync();
      } finally {
        await draft.close();
      }
      try {
        await link(temporary, path);
      } finally {
        await rm(temporary, { force: true });
      }
      // The new file's name must survive a power loss too.
      if (this.#fsync) await syncDirectory(dirname(this.#statePath));
      return { file: await open(path, READ_WRITE_NO_LINK), length: HEADER_BYTES };
    })();
    this.#handles.set(segment, created);
    this.#created = created.catch((error: unknown) => {
      this.#failure ??= error instanceof Error ? error : new Error(String(error));
    });
  }

  /** Marks a segment of an earlier run `final=1` (at its length: a torn tail was cut at replay), after the next one is created. */
  #closeFollowed(segment: number): void {
    const previous = this.#created;
    this.#created = (async () => {
      await previous;
      if (this.#failure) return;
      const path = segmentPath(this.#statePath, segment);
      const file = await open(path, READ_WRITE_NO_LINK);
      try {
        await writeHeader({ file, length: (await file.stat()).size }, true);
        if (this.#fsync) await file.datasync();
      } finally {
        await file.close();
      }
    })().catch((error: unknown) => {
      this.#failure ??= error instanceof Error ? error : new Error(String(error));
    });
  }

  #handle(segment: number): Promise<OpenSegment> {
    const handle = this.#handles.get(segment);
    if (!handle) throw new InternalError('JOURNAL_SEGMENT_UNKNOWN', { segment });
    return handle;
  }
}

/** Rewrites a segment's header in place to its length so far. */
async function writeHeader(open: OpenSegment, final: boolean): Promise<void> {
  const header = Buffer.from(headerText(open.length, final));
  await open.file.write(header, 0, header.length, 0);
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
