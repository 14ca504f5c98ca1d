import { chmodSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureDirectorySync } from '../../../base/disk/folders.ts';

/** A line every shim holds: how a shim is told from a real program (never overwritten, never handed on to). */
export const SHIM_MARKER = '# relay-emulator shim:';

/** The names tools spawn, and the relay-emulator command each runs. */
export const SHIMS = { 'solana-test-validator': 'test-validator', solana: 'solana', surfpool: 'surfpool' } as const;

/** A word for sh, single-quoted. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Writes DIR/solana-test-validator, DIR/solana and DIR/surfpool: each `exec`s this installation's
 * relay-emulator (the same node, its flags and script) with its command, so that a tool's SIGKILL
 * reaches the emulator itself and no wrapper is left holding a port. A file at one of those names
 * that is not such a shim is refused, untouched. `invocation` is how this process was started
 * (node, its flags, the script). Returns the paths written.
 */
export function writeShims(directory: string, invocation: { node: string; execArgv: readonly string[]; script: string }): string[] {
  const folder = resolve(directory);
  ensureDirectorySync(folder);
  const written: string[] = [];
  for (const [name, command] of Object.entries(SHIMS)) {
    const path = join(folder, name);
    let existing: string | null = null;
    try {
      if (!lstatSync(path).isFile()) throw new ShimRefusal(`${path} is there and is not a file this command wrote`);
      existing = readFileSync(path, 'utf8');
    } catch (error) {
      if (error instanceof ShimRefusal) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new ShimRefusal(`${path}: ${(error as Error).message}`);
    }
    if (existing !== null && !existing.includes(SHIM_MARKER))
      throw new ShimRefusal(`${path} is there and is not a shim relay-emulator wrote; it was left as it is`);
    const words = [invocation.node, ...invocation.execArgv, invocation.script, command].map(quote).join(' ');
    writeFileSync(path, `#!/bin/sh\n${SHIM_MARKER} ${name} runs relay-emulator ${command} (written by \`relay-emulator shims\`)\nexec ${words} "$@"\n`);
    chmodSync(path, 0o755);
    written.push(path);
  }
  return written;
}

/** Why the shims were not written: one line. */
export class ShimRefusal extends Error {
  override readonly name = 'ShimRefusal';
}
