import { resolve } from 'node:path';
import { describeFound, lookAt } from '../../../base/disk/look.ts';
import { OwnedFolder } from '../../../base/disk/owned-folder.ts';

/** A line every shim holds: how a shim is told from a real program (never overwritten, never handed on to). */
export const SHIM_MARKER = '# relay-emulator shim:';

/** The names tools spawn, and the relay-emulator command each runs. */
export const SHIMS = { 'solana-test-validator': 'test-validator', solana: 'solana', surfpool: 'surfpool' } as const;

/** A word for sh, single-quoted. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The most a shim is: three lines. */
const MAX_SHIM_BYTES = 64 * 1024;

/**
 * Writes DIR/solana-test-validator, DIR/solana and DIR/surfpool: each `exec`s this installation's
 * relay-emulator (the same node, its flags and script) with its command, so that a tool's SIGKILL
 * reaches the emulator itself and no wrapper is left holding a port. DIR is a folder of the user's
 * (decision 0010): all three names are judged before any is written, and a name holding anything
 * but such a shim (a program, a link, a folder) refuses the lot, untouched. `invocation` is how
 * this process was started (node, its flags, the script). Returns the paths written.
 */
export function writeShims(directory: string, invocation: { node: string; execArgv: readonly string[]; script: string }): string[] {
  const folder = OwnedFolder.claim(resolve(directory), { label: 'shims', what: 'shims', ownership: 'shared' });
  const isShim = (name: string) => {
    try {
      return (folder.read(name, MAX_SHIM_BYTES)?.toString('utf8') ?? '').includes(SHIM_MARKER);
    } catch {
      return false;
    }
  };
  for (const name of Object.keys(SHIMS)) {
    const found = lookAt(folder.entry(name));
    if (found.kind === 'nothing' || (found.kind === 'file' && isShim(name))) continue;
    throw new ShimRefusal(
      `${folder.entry(name)}: ${describeFound(found)} that is not a shim relay-emulator wrote; nothing was written, and it was left as it is`,
    );
  }
  return Object.entries(SHIMS).map(([name, command]) => {
    const words = [invocation.node, ...invocation.execArgv, invocation.script, command].map(quote).join(' ');
    const text = `#!/bin/sh\n${SHIM_MARKER} ${name} runs relay-emulator ${command} (written by \`relay-emulator shims\`)\nexec ${words} "$@"\n`;
    return folder.write(name, text, { mode: 0o755, replaces: () => isShim(name) });
  });
}

/** Why the shims were not written: one line. */
export class ShimRefusal extends Error {
  override readonly name = 'ShimRefusal';
}
