import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { printablePath } from '../errors/internal-error.ts';

/** A file past the reader's bound: `message` says so in words that follow the file's name. */
export class FileTooLarge extends Error {
  override readonly name = 'FileTooLarge';
  constructor(readonly maxBytes: number) {
    super(`is larger than ${maxBytes} bytes`);
  }
}

/** Not a regular file: a device, a FIFO (opening one waits for a writer, with the whole process), a socket or a folder. */
export class NotARegularFile extends Error {
  override readonly name = 'NotARegularFile';
  constructor(what = 'a device, a pipe or a socket') {
    super(`is ${what}, not a regular file`);
  }
}

/** A symbolic link where a file was named: never followed (decision 0010); the message names where it points. */
export class IsALink extends Error {
  override readonly name = 'IsALink';
  constructor(readonly target: string | null) {
    super(`is a symbolic link${target === null ? '' : ` (to ${printablePath(target)})`}; relay-emulator follows no link: name the file itself`);
  }
}

/** A configuration file in TOML (Anchor.toml, kora.toml, signers.toml) is a few kilobytes; none is near this. */
export const MAX_TOML_BYTES = 1024 * 1024;

/** Read at a time: a file of a few bytes costs one small buffer. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The bytes of the regular file at `path`, at most `maxBytes`, read as every file a user names is
 * read (decision 0010): opened without following a link (`O_NOFOLLOW`: a link is {@link IsALink})
 * and without waiting (`O_NONBLOCK`: a FIFO opens at once and is refused), refused unless a regular
 * file ({@link NotARegularFile}: /dev/zero, a FIFO, a folder), its size checked before it is read
 * and the read stopped one byte past the bound whatever the size said (a file under /proc says 0).
 * Throws {@link FileTooLarge} past it, and the system's error (ENOENT, EACCES) when it cannot be
 * opened. `readFileSync` of /dev/zero reads until memory runs out; of a FIFO, it waits for ever.
 */
export function readBoundedFile(path: string, maxBytes: number): Buffer {
  const fd = openUserFile(path);
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw new NotARegularFile('a folder');
    if (!stats.isFile()) throw new NotARegularFile();
    if (stats.size > maxBytes) throw new FileTooLarge(maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) throw new FileTooLarge(maxBytes);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** {@link readBoundedFile} as UTF-8 text. */
export function readBoundedText(path: string, maxBytes: number): string {
  return readBoundedFile(path, maxBytes).toString('utf8');
}

/** Why a bounded read failed, in words that follow the file's name: "is larger than N bytes", "cannot be read (ENOENT)". */
export function boundedReadProblem(error: unknown): string {
  if (error instanceof FileTooLarge || error instanceof NotARegularFile || error instanceof IsALink) return error.message;
  return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
}

/** True when the read failed because nothing is at the path. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** Opens `path` to read: never through a link at its last step, never waiting on a FIFO. */
export function openUserFile(path: string): number {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    // O_NOFOLLOW answers ELOOP for a link at the last step (and for a loop of links before it).
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && isLink(path)) throw new IsALink(linkTarget(path));
    throw error;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function linkTarget(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/**
 * Why a folder a user named cannot be read as one (decision 0010), in words that follow its name,
 * or null: a link is never followed (its target is named), a file or a device is no folder.
 */
export function folderProblem(path: string): string | null {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch (error) {
    return `cannot be read as a folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  if (stats.isSymbolicLink()) return new IsALink(linkTarget(path)).message.replace('name the file itself', 'name the folder itself');
  if (!stats.isDirectory()) return `is not a folder (${stats.isFile() ? 'a file' : 'a device, a pipe or a socket'})`;
  return null;
}
