import { randomBytes } from 'node:crypto';
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';

/**
 * Keeps a second process off a state file: `PATH.lock` names the process that has the state file
 * open. Two processes on one state file would each journal into their own segments and each
 * compaction would delete the other's, losing what it acknowledged; so an open refuses while the
 * lock names a live process other than this one.
 *
 * Taken atomically, with no read-then-delete window:
 * - A lock is created whole: written to a file of its own, then hard-linked to `PATH.lock`, which
 *   fails when the name exists. No process ever sees a half-written lock.
 * - A lock that may be stale is first claimed by renaming it to a name only this process uses: of
 *   several processes renaming one file, one succeeds. Only then is it judged. A stale one (its
 *   process is gone, or it is this process's own: a container restarted with the same PIDs) is
 *   deleted and the creation tried again; a live one is linked back, and the open refuses.
 * - Ownership is verified after a short settle: a lock claimed and linked back by another starter
 *   in that moment is seen, and the start refuses rather than run beside its holder.
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
  static async acquire(statePath: string, options: { settleMs?: number } = {}): Promise<StateLock> {
    const path = StateLock.pathOf(statePath);
    const nonce = randomBytes(12).toString('hex');
    const own = `${path}.${process.pid}.${nonce}`;
    // Bounded: each round creates the lock, refuses, or clears one stale lock; a contest that never settles ends in a refusal.
    for (let attempt = 0; attempt < 8; attempt += 1) {
      if (await create(path, own, nonce)) {
        await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 50));
        if ((await lockContent(path))?.nonce === nonce) return new StateLock(path, nonce);
        continue;
      }
      const claimed = `${own}.claimed`;
      try {
        await rename(path, claimed);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const holder = await lockContent(claimed);
      if (holder !== null && holder.pid !== process.pid && isAlive(holder.pid)) {
        await link(claimed, path).catch(() => undefined);
        await rm(claimed, { force: true });
        throw inUse(holder.pid, path);
      }
      await rm(claimed, { force: true });
    }
    const holder = await lockContent(path);
    if (holder !== null && holder.pid !== process.pid) throw inUse(holder.pid, path);
    throw new Error(`cannot take ${path}: other processes keep taking it`);
  }

  /** Lets the next process open the state file. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    // Only our own lock: a process that took over a lock it thought stale keeps its own.
    if ((await lockContent(this.path))?.nonce === this.#nonce) await rm(this.path, { force: true });
  }
}

/** Creates the lock whole, or returns false when one exists. */
async function create(path: string, own: string, nonce: string): Promise<boolean> {
  await writeFile(own, `${JSON.stringify({ pid: process.pid, nonce })}\n`, { flag: 'wx' });
  try {
    await link(own, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(own, { force: true });
  }
}

function inUse(pid: number, path: string): Error {
  return new Error(
    `it is in use by process ${pid} (${path}): one state file serves one emulator at a time; stop that process, or delete the lock file if no emulator runs there`,
  );
}

/** What a lock file names, or null when it is gone or unreadable (a lock from before locks were created whole). */
async function lockContent(path: string): Promise<{ pid: number; nonce: string | null } | null> {
  try {
    const { pid, nonce } = JSON.parse(await readFile(path, 'utf8')) as { pid?: unknown; nonce?: unknown };
    if (!Number.isSafeInteger(pid) || (pid as number) <= 0) return null;
    return { pid: pid as number, nonce: typeof nonce === 'string' ? nonce : null };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
