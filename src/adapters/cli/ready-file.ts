import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { InternalError } from '../../base/errors/internal-error.ts';
import { ensureDirectorySync } from '../server/ensure-directory.ts';
import type { ReadyFacts } from './ready.ts';

/** The ready facts' members that tell an earlier run's ready file from any other JSON. */
const READY_KEYS = ['origin', 'baseUrl', 'rpcUrl', 'apiKey', 'feePayer', 'pid'] as const;

/** A ready file is a few hundred bytes; anything past this is not one. */
const MAX_READY_FILE_BYTES = 64 * 1024;

/**
 * `--ready-file PATH`: {@link ReadyFacts} as JSON, written once the emulator answers, removed on
 * shutdown. The emulator writes and removes only a file it made itself (issue 45, item 1: it used
 * to delete whatever was at PATH, a file, a link, `/dev/full` as root). {@link ReadyFile.claim}
 * takes PATH at start, before anything listens:
 *
 * - nothing there: taken, its folder made;
 * - an empty regular file (`mktemp`'s), or a ready file an earlier run left (a `kill -9`): taken,
 *   and the stale one removed, so that it never announces this run;
 * - anything else (a file with other content, a folder, a symbolic link, a device): refused in
 *   one line, untouched, and nothing starts.
 *
 * The folder must take a new file: that is tried at claim, so a ready line is never printed for a
 * file that then cannot be written. The facts go to a temporary name in the same folder, made
 * exclusively (never through a link), and are renamed onto PATH, so a runner polling for PATH never
 * reads half a file; shutdown removes PATH only while it is still that file (same device and inode).
 */
export class ReadyFile {
  #written: { dev: number; ino: number; text: string } | null = null;

  private constructor(readonly path: string) {}

  /** Takes PATH for this run, or throws READY_FILE_REFUSED naming what is there. */
  static claim(path: string): ReadyFile {
    const refuse = (problem: string) => new InternalError('READY_FILE_REFUSED', { path, problem });
    const found = whatIsAt(path);
    if (found === 'stale' || found === 'empty') removeQuietly(path);
    else if (found !== 'nothing') {
      throw refuse(`${found}; the emulator writes its ready file only where nothing is, or over an empty file or a ready file an earlier run left`);
    }
    try {
      ensureDirectorySync(dirname(path));
      const file = new ReadyFile(path);
      // The folder takes a new file, or the start fails now rather than after its ready line.
      unlinkSync(file.#writeTemporary('{}\n'));
      return file;
    } catch (error) {
      throw refuse(`cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }

  /** Writes the facts: a temporary file renamed onto PATH. Throws when the folder takes no file. */
  write(facts: ReadyFacts): void {
    const text = `${JSON.stringify(facts, null, 2)}\n`;
    const temporary = this.#writeTemporary(text);
    const { dev, ino } = lstatSync(temporary);
    renameSync(temporary, this.path);
    this.#written = { dev, ino, text };
  }

  /**
   * Removes PATH if it is still the file {@link write} put there: the same device and inode, and
   * what was written (a file made after ours was deleted may take its inode number); anything
   * else is left as it is.
   */
  remove(): void {
    const written = this.#written;
    this.#written = null;
    if (written === null) return;
    try {
      const now = lstatSync(this.path);
      if (now.isFile() && now.dev === written.dev && now.ino === written.ino && readSmall(this.path) === written.text) unlinkSync(this.path);
    } catch {
      // Gone already, or no longer readable: nothing of ours to remove.
    }
  }

  #writeTemporary(text: string): string {
    const temporary = `${this.path}.${process.pid}.tmp`;
    // 'wx': O_CREAT | O_EXCL, which fails on anything at that name, a symbolic link included.
    const fd = openSync(temporary, 'wx', 0o644);
    try {
      writeSync(fd, text);
    } catch (error) {
      closeSync(fd);
      unlinkSync(temporary);
      throw error;
    }
    closeSync(fd);
    return temporary;
  }
}

/** What PATH holds, as the claim sorts it: what it may take, or words for what it refuses. */
function whatIsAt(path: string): 'nothing' | 'empty' | 'stale' | string {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR (a file where a folder should be) and the like: the folder check below names them.
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'nothing' : `cannot look at it (${code})`;
  }
  if (stats.isSymbolicLink()) return 'it is a symbolic link';
  if (stats.isDirectory()) return 'it is a folder';
  if (!stats.isFile()) return 'it is a device, a pipe or a socket, not a file';
  if (stats.size === 0) return 'empty';
  if (stats.size > MAX_READY_FILE_BYTES || !isReadyFile(path)) return `it is a file of ${stats.size} bytes that is not a ready file`;
  return 'stale';
}

function isReadyFile(path: string): boolean {
  try {
    const parsed: unknown = JSON.parse(readSmall(path) ?? '');
    return typeof parsed === 'object' && parsed !== null && READY_KEYS.every((key) => key in parsed);
  } catch {
    return false;
  }
}

/** The text of a regular file of at most {@link MAX_READY_FILE_BYTES}, or null; opened without following a link or blocking on a pipe. */
function readSmall(path: string): string | null {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return null;
    const bytes = Buffer.alloc(MAX_READY_FILE_BYTES + 1);
    const length = readSync(fd, bytes, 0, bytes.length, 0);
    return length > MAX_READY_FILE_BYTES ? null : bytes.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already: that is all the claim wanted.
  }
}
