import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { EmulatorSnapshot } from '../../domain/state/snapshot.ts';
import { requeueAcknowledged } from '../../domain/snapshots/core-parts.ts';
import { restoreParts, takeSnapshot } from '../../domain/snapshots/snapshots.ts';
import type { RelayEmulator } from '../../assembly/emulator.ts';
import { replayJournal, scanJournal } from './journal-replay.ts';
import { listSegments, segmentPath } from './journal-segments.ts';
import { JournalWriter } from './journal-writer.ts';
import { readStateFile, writeStateFile } from './snapshot-file.ts';
import { StateLock } from './state-lock.ts';
import { InternalError } from '../../base/errors/internal-error.ts';
import { ensureDirectory } from '../../base/disk/folders.ts';
import { acceptJournalLoss, type JournalLoss } from './journal-repair.ts';

export const DEFAULT_STATE_INTERVAL_MS = 5_000;
/** Journal bytes past which a snapshot is taken at once, whatever the interval. */
export const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;

export interface StateFileOptions {
  path: string;
  emulator: RelayEmulator;
  /** Snapshot (and compact the journal) this often while changes come in, in ms; 0: on shutdown, and past compactBytes, only. Default 5000. */
  intervalMs?: number;
  /** Journal bytes that trigger a snapshot at once. Default 64 MiB. */
  compactBytes?: number;
  /** fdatasync each group commit of the journal (default true); false survives a crash of the process but not of the machine. */
  fsync?: boolean;
  onError?: (error: unknown) => void;
  /** Told as each snapshot starts (the journal segment it begins) and once it is written (its size). */
  onCheckpoint?: (event: { phase: 'started'; from: number } | { phase: 'written'; from: number; bytes: number }) => void;
  /** `--accept-state-loss`: cut a damaged journal where the damage starts (a copy of each file kept) and serve what precedes it. Default false. */
  acceptLoss?: boolean;
}

export interface OpenedState {
  /** The snapshot loaded, or null when there was no state file yet. */
  snapshot: EmulatorSnapshot | null;
  /** Journal entries replayed on top of it. */
  replayed: number;
  /** Bytes cut from the end of the journal: the torn last append of a crash, never acknowledged. */
  discardedBytes: number;
  /** Acknowledged transactions that had not reached the ledger, queued again. */
  requeued: number;
  /** What `acceptLoss` cut from a damaged journal (empty when nothing). */
  losses: JournalLoss[];
}

/**
 * The emulator's state on disk: a snapshot plus a write-ahead journal (src/adapters/server/journal-*.ts).
 *
 * - open(): loads the snapshot, replays the journal written after it (cutting a torn last line),
 *   queues again what was acknowledged and not processed, then journals every change from here on.
 *   The server calls it before it serves anything.
 * - Every change is journaled as it is made, and the emulator's fetch answers only once the
 *   changes made so far are durable (group commit): an acknowledged relay is never lost.
 * - checkpoint(): a new snapshot, taken without holding the queue (the journal redoes what moved
 *   while the ledger was read), encoded a slice at a time, written atomically; then the journal
 *   before it is deleted. Taken every intervalMs while changes come in, past compactBytes, and on close.
 */
export class StateFile {
  readonly path: string;
  readonly #emulator: RelayEmulator;
  readonly #intervalMs: number;
  readonly #compactBytes: number;
  readonly #fsync: boolean;
  readonly #onError: (error: unknown) => void;
  readonly #onCheckpoint: NonNullable<StateFileOptions['onCheckpoint']>;
  readonly #acceptLoss: boolean;
  #writer: JournalWriter | null = null;
  #lock: StateLock | null = null;
  #timer: NodeJS.Timeout | null = null;
  #checkpointing: Promise<void> = Promise.resolve();
  #checkpointQueued = false;

  constructor(options: StateFileOptions) {
    this.path = options.path;
    this.#emulator = options.emulator;
    this.#intervalMs = options.intervalMs ?? DEFAULT_STATE_INTERVAL_MS;
    this.#compactBytes = options.compactBytes ?? DEFAULT_COMPACT_BYTES;
    this.#fsync = options.fsync ?? true;
    this.#onError = options.onError ?? ((error) => console.error('relay-emulator: could not save state', error));
    this.#onCheckpoint = options.onCheckpoint ?? (() => undefined);
    this.#acceptLoss = options.acceptLoss ?? false;
  }

  /** Restores the snapshot and the journal into the emulator (which must be fresh), and starts journaling. */
  async open(): Promise<OpenedState> {
    const { services } = this.#emulator;
    if (this.#writer) throw new InternalError('STATE_FILE_OPEN', { path: this.path });
    // Before anything is read or deleted: another process serving this file would lose what it acknowledged.
    await ensureDirectory(dirname(this.path));
    this.#lock = await StateLock.acquire(this.path);
    services.queue.hold();
    try {
      // Judged whole before anything is changed: damage refuses the start and leaves every file as it was.
      const content = await readStateFile(this.path);
      const from = content?.journal?.from ?? 0;
      const strict = content === null ? null : content.version >= 2;
      const losses = this.#acceptLoss ? await acceptJournalLoss(this.path, from, strict) : [];
      const scan = await scanJournal(this.path, from, strict);
      await this.#removeTemporaries();
      if (content) await restoreParts(services, content);
      const { replayed, discardedBytes, lastSegment } = await replayJournal(scan, services.state);
      await ensureDirectory(dirname(this.path));
      const last = scan.live.at(-1);
      this.#writer = new JournalWriter({
        statePath: this.path,
        segment: Math.max(lastSegment, from - 1) + 1,
        ...(last?.content.header ? { follows: last.segment } : {}),
        fsync: this.#fsync,
      });
      services.changes.attach(this.#writer);
      // Queued once the journal listens, so that their outcomes are journaled too.
      const requeued = requeueAcknowledged(services);
      this.#startTimer();
      // Compact what was replayed (in the background: the emulator serves meanwhile).
      if (replayed > 0 || discardedBytes > 0) this.#requestCheckpoint();
      return { snapshot: content, replayed, discardedBytes, requeued, losses };
    } catch (error) {
      if (!this.#writer) {
        await this.#lock.release();
        this.#lock = null;
      }
      throw error;
    } finally {
      services.queue.release();
    }
  }

  /** Takes a snapshot now (after any in progress) and deletes the journal it makes redundant. */
  checkpoint(): Promise<void> {
    const run = this.#checkpointing.then(() => this.#checkpoint());
    this.#checkpointing = run.catch(() => undefined);
    return run;
  }

  /** Stops journaling after a last snapshot, taken with the queue held so that it holds everything. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    const writer = this.#writer;
    if (!writer) return;
    const { queue, changes } = this.#emulator.services;
    queue.hold();
    try {
      await queue.idle();
      await this.checkpoint();
    } finally {
      changes.detach();
      this.#writer = null;
      await writer.close();
      await this.#lock?.release();
      this.#lock = null;
      queue.release();
    }
  }

  /** Snapshots and segments a crash interrupted before their rename or link: never read, only in the way. */
  async #removeTemporaries(): Promise<void> {
    const pattern = new RegExp(`^${basename(this.path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(journal\\.)?\\d+\\.tmp$`);
    let names: string[];
    try {
      names = await readdir(dirname(this.path));
    } catch {
      return;
    }
    for (const name of names) if (pattern.test(name)) await rm(join(dirname(this.path), name), { force: true });
  }

  async #checkpoint(): Promise<void> {
    const writer = this.#writer;
    if (!writer) return;
    this.#checkpointQueued = false;
    // One point of the journal: every part in memory is captured in this same tick.
    const from = writer.rotate();
    this.#onCheckpoint({ phase: 'started', from });
    const snapshot = await takeSnapshot(this.#emulator.services);
    // The ledger's accounts were read after that point: what they show must be journaled durably
    // before a snapshot holding it replaces the file (else a crash could show an outcome whose record is lost).
    await writer.durable();
    const bytes = await writeStateFile(this.path, { ...snapshot, journal: { from } }, { fsync: this.#fsync });
    for (const segment of await listSegments(this.path)) {
      if (segment < from) await rm(segmentPath(this.path, segment), { force: true });
    }
    this.#onCheckpoint({ phase: 'written', from, bytes });
  }

  /** Every second (or interval, if shorter): a snapshot when the journal passed compactBytes, or grew and intervalMs went by. */
  #startTimer(): void {
    let last = performance.now();
    this.#timer = setInterval(
      () => {
        const bytes = this.#writer?.bytesInSegment ?? 0;
        const due = bytes >= this.#compactBytes || (this.#intervalMs > 0 && bytes > 0 && performance.now() - last >= this.#intervalMs);
        if (!due) return;
        last = performance.now();
        this.#requestCheckpoint();
      },
      this.#intervalMs > 0 ? Math.min(this.#intervalMs, 1_000) : 1_000,
    );
    this.#timer.unref();
  }

  #requestCheckpoint(): void {
    if (this.#checkpointQueued) return;
    this.#checkpointQueued = true;
    this.checkpoint().catch(this.#onError);
  }
}
