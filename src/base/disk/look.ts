import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { printablePath } from '../errors/internal-error.ts';

/** What is at a path, looked at without following a link (lstat): what the disk module's claims judge by. */
export type Found =
  | { kind: 'nothing' }
  | { kind: 'file'; stats: Stats }
  | { kind: 'folder'; stats: Stats }
  | { kind: 'link'; target: string | null }
  | { kind: 'special' }
  | { kind: 'unreadable'; code: string };

export function lookAt(path: string): Found {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    // ENOTDIR: a file where a folder of the path should be; the folder's making names it.
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'nothing' } : { kind: 'unreadable', code };
  }
  if (stats.isSymbolicLink()) {
    let target: string | null = null;
    try {
      target = readlinkSync(path);
    } catch {
      // Gone meanwhile: a link all the same.
    }
    return { kind: 'link', target };
  }
  if (stats.isDirectory()) return { kind: 'folder', stats };
  if (stats.isFile()) return { kind: 'file', stats };
  return { kind: 'special' };
}

/** Words for what was found, as a refusal says them: "it is a symbolic link (to /etc/passwd)". */
export function describeFound(found: Found): string {
  switch (found.kind) {
    case 'nothing':
      return 'nothing is there';
    case 'file':
      return `it is a file of ${found.stats.size} bytes`;
    case 'folder':
      return 'it is a folder';
    case 'link':
      return `it is a symbolic link${found.target === null ? '' : ` (to ${printablePath(found.target)})`}`;
    case 'special':
      return 'it is a device, a pipe or a socket';
    case 'unreadable':
      return `it cannot be looked at (${found.code})`;
  }
}

/** The system's code of a failed call, or its message: `EACCES`. */
export function systemCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
