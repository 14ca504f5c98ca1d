import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { InternalError } from '../errors/internal-error.ts';
import { ensureDirectorySync } from './folders.ts';
import { describeFound, lookAt, systemCode } from './look.ts';
import { openUserFile, readBoundedFile, readBoundedText } from './read-file.ts';

/** A kind of file the emulator writes at a path a user names: how it is told from any other file. */
export interface OwnedFileKind {
  /** What names it, for refusals: a flag (`--sponsor-costs`) or words (`the snapshot`). */
  label: string;
  /** Words for such a file: `a ready file`, `a sponsor-cost report`. */
  what: string;
  /** True for text an earlier run wrote at such a path (a ready file's keys, a report's shape). */
  isOurs(text: string): boolean;
  /** The largest such file: a larger one is not one. */
  maxBytes: number;
  /** Judge by the file's first bytes only (a state export of 100 MB starts with its format): `isOurs` gets this many. */
  headBytes?: number;
}

/**
 * A file the emulator writes at a path a user named (`--ready-file`, `--sponsor-costs`, `costs
 * update`, `export --out`, …): decision 0010's rules for one file, in one place.
 *
 * - {@link claim} judges PATH before anything is done: nothing there, an empty regular file
 *   (`mktemp`'s), or a file of this kind an earlier run wrote may be taken; anything else (a file
 *   with other content, a folder, a symbolic link, a device, a FIFO) is refused in one line,
 *   untouched. The folder must take a new file: that is tried at claim.
 * - {@link write} judges PATH again (a run lasts; the user may have put something there meanwhile),
 *   writes a temporary file in the same folder, made exclusively (`wx`: never through a link), and
 *   renames it onto PATH: a reader never sees half a file.
 * - {@link remove} deletes PATH only while it is still the file written (device, inode and text).
 */
export class OwnedFile {
  #written: { dev: number; ino: number; bytes: Buffer } | null = null;

  private constructor(
    readonly path: string,
    readonly kind: OwnedFileKind,
  ) {}

  /**
   * Takes PATH, or throws PATH_REFUSED naming what is there. `clearStale`: an empty file or one an
   * earlier run left is removed now (a ready file must never announce this run before it is ready).
   */
  static claim(path: string, kind: OwnedFileKind, { clearStale = false }: { clearStale?: boolean } = {}): OwnedFile {
    const file = new OwnedFile(path, kind);
    const found = file.#judge();
    if (found === 'ours' && clearStale) removeQuietly(path);
    try {
      ensureDirectorySync(dirname(path));
      // The folder takes a new file, or the start fails now rather than when the file is due.
      unlinkSync(file.#writeTemporary('{}\n'));
    } catch (error) {
      throw file.#refuse(`cannot write there (${error instanceof Error && /^cannot make the folder/.test(error.message) ? error.message : systemCode(error)})`);
    }
    return file;
  }

  /** Writes `text` at PATH (a temporary file renamed onto it). Throws PATH_REFUSED when PATH now holds what is not ours, or the folder takes no file. */
  write(content: string | Uint8Array): void {
    this.#judge();
    const bytes = Buffer.from(typeof content === 'string' ? Buffer.from(content) : content);
    let temporary: string;
    try {
      temporary = this.#writeTemporary(bytes);
    } catch (error) {
      throw this.#refuse(`cannot write there (${systemCode(error)})`);
    }
    const { dev, ino } = lstatSync(temporary);
    try {
      renameSync(temporary, this.path);
    } catch (error) {
      removeQuietly(temporary);
      throw this.#refuse(`cannot write there (${systemCode(error)})`);
    }
    this.#written = { dev, ino, bytes };
  }

  /** Removes PATH if it is still the file {@link write} put there; anything else is left as it is. */
  remove(): void {
    const written = this.#written;
    this.#written = null;
    if (written === null) return;
    const found = lookAt(this.path);
    if (found.kind !== 'file' || found.stats.dev !== written.dev || found.stats.ino !== written.ino) return;
    try {
      if (readBoundedFile(this.path, Math.max(this.kind.maxBytes, written.bytes.length)).equals(written.bytes)) unlinkSync(this.path);
    } catch {
      // No longer readable: nothing of ours to remove.
    }
  }

  /** 'ours' (an empty file, or one of this kind), 'nothing', or throws PATH_REFUSED saying what is there. */
  #judge(): 'nothing' | 'ours' {
    const found = lookAt(this.path);
    if (found.kind === 'nothing') return 'nothing';
    if (found.kind === 'file') {
      const written = this.#written;
      if (written !== null && found.stats.dev === written.dev && found.stats.ino === written.ino) return 'ours';
      if (found.stats.size === 0) return 'ours';
      if ((this.kind.headBytes !== undefined || found.stats.size <= this.kind.maxBytes) && this.#holdsOurs()) return 'ours';
    }
    throw this.#refuse(
      `${describeFound(found)}, not ${this.kind.what}; relay-emulator writes ${this.kind.what} only where nothing is, ` +
        `over an empty file, or over ${this.kind.what} it wrote before`,
    );
  }

  #holdsOurs(): boolean {
    try {
      if (this.kind.headBytes !== undefined) return this.kind.isOurs(readHead(this.path, this.kind.headBytes));
      return this.kind.isOurs(readBoundedText(this.path, this.kind.maxBytes));
    } catch {
      return false;
    }
  }

  #refuse(problem: string): InternalError<'PATH_REFUSED'> {
    return new InternalError('PATH_REFUSED', { label: this.kind.label, path: this.path, problem });
  }

  #writeTemporary(text: string | Uint8Array): string {
    const temporary = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    // 'wx': O_CREAT | O_EXCL, which fails on anything at that name, a symbolic link included.
    const fd = openSync(temporary, 'wx', 0o644);
    try {
      writeAll(fd, text);
    } catch (error) {
      closeSync(fd);
      removeQuietly(temporary);
      throw error;
    }
    closeSync(fd);
    return temporary;
  }
}

/** True when `text` is JSON of an object holding every one of `keys`: how most of our files are told apart. */
export function isJsonWithKeys(text: string, keys: readonly string[]): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && keys.every((key) => key in parsed);
  } catch {
    return false;
  }
}

/** The first `bytes` of a regular file, as text (opened as every user file is: no link, no waiting). */
function readHead(path: string, bytes: number): string {
  const fd = openUserFile(path);
  try {
    if (!fstatSync(fd).isFile()) return '';
    const head = Buffer.alloc(bytes);
    return head.subarray(0, readSync(fd, head, 0, bytes, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Writes every byte (a write may take fewer than asked). */
export function writeAll(fd: number, content: string | Uint8Array): void {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}
