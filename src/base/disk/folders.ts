import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Makes `directory` and its missing parents, one level at a time: Node 20's `mkdir(…, { recursive:
 * true })` never returns for a path under /proc (`/proc/nope/x`: it spins at full CPU, deaf to
 * SIGTERM), so the state file's folder, the ready file's and an export's are made here. Throws an
 * Error that names the folder and the system's code (ENOENT, EACCES, ENOTDIR) when one cannot be made.
 */
export async function ensureDirectory(directory: string): Promise<void> {
  const missing: string[] = [];
  // Up to the first path that exists (a folder, or a file the next mkdir fails under): bounded by the path's depth.
  for (let at = resolve(directory); dirname(at) !== at; at = dirname(at)) {
    if (
      await stat(at).then(
        () => true,
        (error: NodeJS.ErrnoException) => notMissing(error, at),
      )
    )
      break;
    missing.unshift(at);
  }
  for (const folder of missing) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw cannotMake(folder, error);
    });
  }
}

/** {@link ensureDirectory}, synchronously. */
export function ensureDirectorySync(directory: string): void {
  const missing: string[] = [];
  for (let at = resolve(directory); dirname(at) !== at; at = dirname(at)) {
    try {
      statSync(at);
      break;
    } catch (error) {
      if (notMissing(error as NodeJS.ErrnoException, at)) break;
    }
    missing.unshift(at);
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotMake(folder, error as NodeJS.ErrnoException);
    }
  }
}

/** False for a path that does not exist (go on up); throws for one that cannot be looked at. */
function notMissing(error: NodeJS.ErrnoException, at: string): boolean {
  if (error.code === 'ENOENT') return false;
  throw cannotMake(at, error);
}

function cannotMake(folder: string, error: NodeJS.ErrnoException): Error {
  return new Error(`cannot make the folder ${folder} (${error.code ?? error.message})`);
}
