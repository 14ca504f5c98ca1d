import { realpathSync } from 'node:fs';
import { relative } from 'node:path';
import { ShimRefusal, writeShims } from './shim-files.ts';

const USAGE = `Usage: relay-emulator shims DIR

Writes DIR/solana-test-validator, DIR/solana and DIR/surfpool, each running this relay-emulator, so that
tools that start a validator by name (anchor test, Light's CLI, scripts) start the emulator instead:

  npx relay-emulator shims .shims && PATH=$PWD/.shims:$PATH anchor test
`;

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
    written = writeShims(argv[0]!, { node: process.execPath, execArgv: process.execArgv, script: realpathSync(process.argv[1]!) });
  } catch (error) {
    if (!(error instanceof ShimRefusal) && !(error instanceof Error && /cannot make the folder/.test(error.message))) throw error;
    io.stderr(`relay-emulator shims: ${error.message}\n`);
    return 1;
  }
  io.stdout(`${written.map((path) => relative(process.cwd(), path) || path).join(', ')}: put their folder first on PATH (PATH=$PWD/${argv[0]}:$PATH)\n`);
  return 0;
}
