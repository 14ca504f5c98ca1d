import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { isInternalError } from '../../../base/errors/internal-error.ts';
import { ShimRefusal, writeShims } from './shim-files.ts';

const USAGE = `Usage: relay-emulator shims DIR

Writes DIR/solana-test-validator, DIR/solana and DIR/surfpool, each running this relay-emulator, so that
tools that start a validator by name (anchor test, Light's CLI, scripts) start the emulator instead:

  npx relay-emulator shims .shims && PATH=$PWD/.shims:$PATH anchor test
`;

/**
 * This process's node flags with each module a flag loads (`--import tsx`, under `npm start`) named
 * by its file: node resolves a bare name from the working directory, and a tool that spawns the
 * shim from elsewhere (a test suite's folder, /tmp) would not find it.
 */
export function resolvedExecArgv(execArgv: readonly string[]): string[] {
  return execArgv.map((arg, at) => {
    const loads = ['--import', '--loader', '--experimental-loader', '--require', '-r'].includes(execArgv[at - 1] ?? '');
    if (!loads || arg.startsWith('.') || arg.startsWith('/') || arg.includes(':')) return arg;
    try {
      return import.meta.resolve(arg);
    } catch {
      return arg;
    }
  });
}

/** `relay-emulator shims DIR`. Resolves with the exit code. */
export function runShimsCommand(argv: string[], io: { stdout: (text: string) => void; stderr: (text: string) => void }): number {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    io.stdout(USAGE);
    return 0;
  }
  if (argv.length !== 1 || argv[0]!.startsWith('-')) {
    io.stderr(`relay-emulator shims: give the one folder to write them to (relay-emulator shims --help)\n`);
    return 2;
  }
  let written: string[];
  try {
    // This process as it was started (node, its flags: tsx under `npm start`; the bin or the compiled CLI).
    written = writeShims(argv[0]!, { node: process.execPath, execArgv: resolvedExecArgv(process.execArgv), script: realpathSync(process.argv[1]!) });
  } catch (error) {
    if (!(error instanceof ShimRefusal) && !isInternalError(error, 'PATH_REFUSED')) throw error;
    io.stderr(`relay-emulator shims: ${error.message}\n`);
    return 1;
  }
  // An absolute folder is named as it is: PATH=$PWD//abs/dir was no folder at all (issue 52).
  const onPath = isAbsolute(argv[0]!) ? argv[0]! : `$PWD/${argv[0]}`;
  // A folder with a space or a quote in its name is quoted for sh, $PWD left to expand.
  const hint = /^[\w./$+-]+$/.test(onPath) ? `PATH=${onPath}:$PATH` : `PATH="${onPath.replace(/(?!^\$PWD)[\\"$`]/g, '\\$&')}:$PATH"`;
  io.stdout(`${written.map((path) => relative(process.cwd(), path) || path).join(', ')}: put their folder first on PATH (${hint})\n`);
  return 0;
}
