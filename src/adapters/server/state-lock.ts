import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { InternalError } from '../../base/errors/internal-error.ts';
import { isProcessAlive } from './process-alive.ts';

/**
 * Keeps a second process off a state file: `PATH.lock` names the process that has the state file
 * open. Two processes on one state file would each journal into their own segments and each
 * compaction would delete the other's, losing what it acknowledged; so an open refuses while the
 * lock names a live process other than this one.
 *
 * Taken atomically, with no read-then-delete window:
 * - A lock is created whole, written to a file of its own and hard-linked to `PATH.lock`, which
 *   fails when the name exists: no process ever sees half a lock, and of several creators one wins.
 * - A stale lock (its process is gone, or it is this process's own: a container restarted with the
 *   same PIDs) is never deleted: it is replaced, by renaming a new lock over it, which leaves the
 *   name in place throughout, so no creator can slip in. Replacing takes a mutex (`PATH.lock.takeover`,
 *   a directory: mkdir is exclusive) and reads the lock again under it, so of several processes that
 *   judged the same lock stale, one replaces it and the others then find a live holder.
 * - The mutex is held for a read and a rename. One left by a process that died holding it (older
 *   than TAKEOVER_STALE_MS) is removed; two processes removing it at once is the one race left, and
 *   it needs a death inside that window first.
 *
 * Within one process the lock is not exclusive: a process that opens the same file twice (tests
 * standing for a crash and its restart) is trusted to have dropped the first.
 */
export class StateLock {
  readonly path: string;
  readonly #nonce: string;
  #released = false;

  private constructor(path: string, nonce: string) {
    this.path = path;
    this.#nonce = nonce;
  }

  static pathOf(statePath: string): string {
    return `${statePath}.lock`;
  }

  /** Takes the lock of `statePath`, or throws when another live process holds it. The directory must exist. */
  static async acquire(statePath: string): Promise<StateLock> {
    const path = StateLock.pathOf(statePath);
    const nonce = randomBytes(12).toString('hex');
    const own = `${path}.${process.pid}.${nonce}`;
    await writeFile(own, `${JSON.stringify({ pid: process.pid, nonce })}\n`, { flag: 'wx' });
    try {
      // Bounded: each round creates the lock, refuses, replaces a stale one, or sees it change under it.
      for (let attempt = 0; attempt < 20; attempt += 1) {
        if (await linked(own, path)) return new StateLock(path, nonce);
        const judged = await readLock(path);
        if (judged === 'gone') continue;
        if (judged !== 'unreadable' && judged.pid !== process.pid && isProcessAlive(judged.pid)) throw inUse(judged.pid, path);
        const replaced = await underTakeoverMutex(path, async () => {
          const again = await readLock(path);
          if (again === 'gone' || !sameLock(again, judged)) return false;
          await rename(own, path);
          return true;
        });
        if (replaced) return new StateLock(path, nonce);
      }
      throw new InternalError('STATE_LOCK_CONTENDED', { path });
    } finally {
      await rm(own, { force: true });
    }
  }

  /** Lets the next process open the state file. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    // Only our own lock: one this process opened again since (a restart in tests) keeps its own.
    const holder = await readLock(this.path);
    if (holder !== 'gone' && holder !== 'unreadable' && holder.nonce === this.#nonce) await rm(this.path, { force: true });
  }
}

/** A takeover mutex older than this was left by a process that died holding it. */
const TAKEOVER_STALE_MS = 10_000;

async function underTakeoverMutex<T>(path: string, work: () => Promise<T>): Promise<T | false> {
  const mutex = `${path}.takeover`;
  for (let attempt = 0; attempt < 400; attempt += 1) {
    try {
      await mkdir(mutex);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(mutex).then(
        (found) => Date.now() - found.mtimeMs,
        () => 0,
      );
      if (age > TAKEOVER_STALE_MS) await rmdir(mutex).catch(() => undefined);
      else await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    try {
      return await work();
    } finally {
      await rmdir(mutex).catch(() => undefined);
    }
  }
  return false;
}

async function linked(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

type LockContent = { pid: number; nonce: string | null; text: string };

/** What a lock file holds: gone, unreadable (a lock from before locks were created whole), or its holder. */
async function readLock(path: string): Promise<LockContent | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const { pid, nonce } = JSON.parse(text) as { pid?: unknown; nonce?: unknown };
    if (!Number.isSafeInteger(pid) || (pid as number) <= 0) return 'unreadable';
    return { pid: pid as number, nonce: typeof nonce === 'string' ? nonce : null, text };
  } catch {
    return 'unreadable';
  }
}

function sameLock(now: LockContent | 'unreadable', judged: LockContent | 'unreadable'): boolean {
  if (now === 'unreadable' || judged === 'unreadable') return now === judged;
  return now.text === judged.text;
}

function inUse(pid: number, path: string): Error {
  return new Error(
    `it is in use by process ${pid} (${path}): one state file serves one emulator at a time; stop that process, or delete the lock file if no emulator ` +
      `runs there`,
  );
}
