import { open, readFile, rm } from 'node:fs/promises';

/**
 * Keeps a second process off a state file: `PATH.lock` holds the PID of the process that has the
 * state file open. Two processes on one state file would each journal into their own segments and
 * each compaction would delete the other's, losing what it acknowledged; so an open refuses while
 * the PID in the lock is a live process other than this one.
 *
 * A lock left by a process that died (`kill -9`, power loss) names a PID that is gone, or this
 * process's own (a container restarted with the same PIDs), and is taken over. Within one process
 * the lock is not exclusive: a process that opens the same file twice (tests standing for a crash
 * and its restart) is trusted to have dropped the first.
 */
export class StateLock {
  readonly path: string;
  #released = false;

  private constructor(path: string) {
    this.path = path;
  }

  static pathOf(statePath: string): string {
    return `${statePath}.lock`;
  }

  /** Takes the lock of `statePath`, or throws when another live process holds it. The directory must exist. */
  static async acquire(statePath: string): Promise<StateLock> {
    const path = StateLock.pathOf(statePath);
    // Bounded: each round either creates the file or removes a stale one; a race with another starter ends in a refusal.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const file = await open(path, 'wx');
        try {
          await file.writeFile(`${JSON.stringify({ pid: process.pid })}\n`);
        } finally {
          await file.close();
        }
        return new StateLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await lockHolder(path);
      if (holder !== null && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `it is in use by process ${holder} (${path}): one state file serves one emulator at a time; stop that process, or delete the lock file if no emulator runs there`,
        );
      }
      await rm(path, { force: true });
    }
    throw new Error(`cannot take ${path}: another process keeps taking it`);
  }

  /** Lets the next process open the state file. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    // Only our own lock: a process that took over a lock it thought stale keeps its own.
    if ((await lockHolder(this.path)) === process.pid) await rm(this.path, { force: true });
  }
}

/** The PID a lock file names, or null when it is gone or unreadable (a crash while writing it). */
async function lockHolder(path: string): Promise<number | null> {
  try {
    const { pid } = JSON.parse(await readFile(path, 'utf8')) as { pid?: unknown };
    return Number.isSafeInteger(pid) && (pid as number) > 0 ? (pid as number) : null;
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
