import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** A file past the reader's bound: `message` says so in words that follow the file's name. */
export class FileTooLarge extends Error {
  override readonly name = 'FileTooLarge';
  constructor(readonly maxBytes: number) {
    super(`is larger than ${maxBytes} bytes`);
  }
}

/** Not a regular file, where only one is read (`--watch`: a FIFO would block the server as it opens). */
export class NotARegularFile extends Error {
  override readonly name = 'NotARegularFile';
  constructor() {
    super('is not a regular file');
  }
}

/** A configuration file in TOML (Anchor.toml, kora.toml, signers.toml) is a few kilobytes; none is near this. */
export const MAX_TOML_BYTES = 1024 * 1024;

/** Read at a time: a file of a few bytes costs one small buffer, /dev/zero stops one chunk past the bound. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The bytes of the file at `path`, at most `maxBytes`: a regular file's size is checked before it
 * is read, and anything else (a device such as /dev/zero, a pipe) is read no further than one byte
 * past the bound. Throws {@link FileTooLarge} past it, and the system's error (ENOENT, EISDIR,
 * EACCES) when the file cannot be read. `readFileSync` of /dev/zero reads until memory runs out
 * (8 GB and rising, for `--kora-config /dev/zero`).
 */
export function readBoundedFile(path: string, maxBytes: number, { regularOnly = false }: { regularOnly?: boolean } = {}): Buffer {
  // regularOnly: opened without waiting (opening a FIFO waits for a writer, with the whole process), refused unless a regular file.
  const fd = openSync(path, regularOnly ? constants.O_RDONLY | constants.O_NONBLOCK : 'r');
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR' });
    if (regularOnly && !stats.isFile()) throw new NotARegularFile();
    if (stats.isFile() && stats.size > maxBytes) throw new FileTooLarge(maxBytes);
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
export function readBoundedText(path: string, maxBytes: number, options: { regularOnly?: boolean } = {}): string {
  return readBoundedFile(path, maxBytes, options).toString('utf8');
}

/** Why a bounded read failed, in words that follow the file's name: "is larger than N bytes", "cannot be read (ENOENT)". */
export function boundedReadProblem(error: unknown): string {
  if (error instanceof FileTooLarge || error instanceof NotARegularFile) return error.message;
  return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
}
