import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, lstatSync, openSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InternalError } from '../errors/internal-error.ts';
import { ensureDirectorySync } from './folders.ts';
import { describeFound, lookAt, systemCode } from './look.ts';
import { removeQuietly, writeAll } from './owned-file.ts';
import { boundedReadProblem, isMissing, readBoundedFile } from './read-file.ts';

/** A kind of folder the emulator writes files into: how its own are told from any other. */
export interface OwnedFolderKind {
  /** What names it, for refusals: a flag (`clone --out`) or words (`the clone cache`). */
  label: string;
  /** Words for such a folder: `a clone folder`. */
  what: string;
  /**
   * `own`: the folder is the emulator's (clone --out, the clone cache, export's dump folder): it is
   * made, or empty, or holds `marker` as the emulator wrote it; any other folder is refused.
   * `shared`: a folder of the user's where the emulator keeps files of its own by name (the ledger,
   * the shims): whatever else it holds is never touched.
   */
  ownership: 'own' | 'shared';
  /** `own`: the file that shows the folder is ours (`manifest.json`). */
  marker?: {
    name: string;
    /** `ours`, `foreign` (another program's file of that name: a web app's manifest.json), or what is damaged in one of ours. */
    judge(text: string): 'ours' | 'foreign' | { damaged: string };
    maxBytes: number;
  };
  /** `own`, without a marker: the folder is ours when its names say so (every one an `<address>.json`). */
  isOurs?: (names: readonly string[]) => boolean;
}

/** A name of one entry: no separator, not `.` or `..`, no NUL, at most 255 bytes. */
export function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && Buffer.byteLength(name) <= 255;
}

/**
 * A folder the emulator writes files into, by decision 0010's rules:
 * - the folder itself is never a link, and is made a level at a time (never spinning under /proc);
 * - an entry is named by a plain name ({@link isPlainName}: a manifest key `../../x` never leaves it);
 * - an entry is read without following a link or waiting on a FIFO, with a bound;
 * - an entry is written through a temporary file made exclusively and renamed onto it, and only
 *   over nothing or a regular file (never a link, a folder or a device), and in a shared folder
 *   only over a file the caller knows for its own;
 * - an entry is deleted only by name, and only while it is a regular file (or a link the caller made).
 */
export class OwnedFolder {
  private constructor(
    readonly path: string,
    readonly kind: OwnedFolderKind,
  ) {}

  /** Takes the folder at `path` (made when missing), or throws PATH_REFUSED naming what is there. */
  static claim(path: string, kind: OwnedFolderKind): OwnedFolder {
    const folder = new OwnedFolder(resolve(path), kind);
    const refuse = (problem: string) => new InternalError('PATH_REFUSED', { label: kind.label, path: folder.path, problem });
    let found = lookAt(folder.path);
    if (found.kind === 'nothing') {
      try {
        ensureDirectorySync(folder.path);
      } catch (error) {
        throw refuse((error as Error).message);
      }
      found = lookAt(folder.path);
    }
    if (found.kind !== 'folder') throw refuse(`${describeFound(found)}, not a folder`);
    if (kind.ownership === 'own') {
      let names: string[];
      try {
        names = readdirSync(folder.path);
      } catch (error) {
        throw refuse(`cannot be listed (${systemCode(error)})`);
      }
      const marker = kind.marker && names.includes(kind.marker.name) ? folder.#judgeMarker() : 'foreign';
      if (typeof marker === 'object') {
        throw refuse(`its ${kind.marker!.name} ${marker.damaged}; ${kind.what} holds only what relay-emulator wrote (delete the folder to start again)`);
      }
      const ours = kind.marker ? marker === 'ours' : (kind.isOurs?.(names) ?? false);
      if (names.length > 0 && !ours) {
        throw refuse(
          `it holds files relay-emulator did not write (${kind.marker ? `no ${kind.marker.name} of its own` : 'not only what it writes'}); ` +
            `${kind.what} is written only into an empty folder, a new one, or one it wrote before`,
        );
      }
    }
    return folder;
  }

  /** The path of entry `name`; throws PATH_REFUSED for a name that is not plain. */
  entry(name: string): string {
    if (!isPlainName(name)) {
      throw new InternalError('PATH_REFUSED', {
        label: this.kind.label,
        path: this.path,
        problem: `"${name}" is not a plain file name; nothing outside the folder is used`,
      });
    }
    return join(this.path, name);
  }

  /** Entry `name`'s bytes, at most `maxBytes`, or null when nothing is there; throws PATH_REFUSED for a link, a device, a folder or a file too large. */
  read(name: string, maxBytes: number): Buffer | null {
    const path = this.entry(name);
    try {
      return readBoundedFile(path, maxBytes);
    } catch (error) {
      if (isMissing(error)) return null;
      throw new InternalError('PATH_REFUSED', { label: this.kind.label, path, problem: boundedReadProblem(error) });
    }
  }

  /**
   * Writes entry `name`: a temporary file renamed onto it. What is there must be nothing or a
   * regular file; in a shared folder, a regular file only when `replaces(path)` says it is ours.
   */
  write(name: string, content: string | Uint8Array, options: { mode?: number; replaces?: (path: string) => boolean } = {}): string {
    const path = this.entry(name);
    const found = lookAt(path);
    const refuse = (problem: string) => new InternalError('PATH_REFUSED', { label: this.kind.label, path, problem });
    if (found.kind !== 'nothing') {
      const replaceable = found.kind === 'file' && (options.replaces ? options.replaces(path) : this.kind.ownership === 'own');
      if (!replaceable) throw refuse(`${describeFound(found)} that relay-emulator did not write; it was left as it is`);
    }
    const temporary = join(this.path, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      const fd = openSync(temporary, 'wx', options.mode ?? 0o644);
      try {
        writeAll(fd, content);
      } finally {
        closeSync(fd);
      }
      // The mode asked for, whatever the umask took from it (a shim must be executable).
      if (options.mode !== undefined) chmodSync(temporary, options.mode);
      renameSync(temporary, path);
    } catch (error) {
      removeQuietly(temporary);
      throw refuse(`cannot write there (${systemCode(error)})`);
    }
    return path;
  }

  /** Deletes entry `name` when it is a regular file (or, `links`, a symbolic link); leaves anything else. True when deleted. */
  remove(name: string, { links = false }: { links?: boolean } = {}): boolean {
    const path = this.entry(name);
    try {
      const stats = lstatSync(path);
      if (!(stats.isFile() || (links && stats.isSymbolicLink()))) return false;
      unlinkSync(path);
      return true;
    } catch {
      return false;
    }
  }

  /** The names the folder holds (none when it cannot be listed). */
  names(): string[] {
    try {
      return readdirSync(this.path);
    } catch {
      return [];
    }
  }

  /** The marker there, judged (read as every entry is: no link, bounded; one that cannot be read is not ours). */
  #judgeMarker(): ReturnType<NonNullable<OwnedFolderKind['marker']>['judge']> {
    const marker = this.kind.marker!;
    try {
      const bytes = this.read(marker.name, marker.maxBytes);
      return bytes === null ? 'foreign' : marker.judge(bytes.toString('utf8'));
    } catch {
      return 'foreign';
    }
  }
}
