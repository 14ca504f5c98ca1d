import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { EMULATOR_VERSION } from '../../base/version.ts';

const USAGE = `Usage: relay-emulator <command> [options]

Commands:
  start         run the emulator on a port (relay-emulator start --help)
  exec          start it, run a command against it, stop it: relay-emulator exec [options] -- <command...>
  test-validator  solana-test-validator's command line, over the emulator (relay-emulator test-validator --help)
  costs         compare what a sponsor pays with the committed snapshot: relay-emulator costs update|check|diff
  clone         fetch accounts of a cluster once, as Solana CLI dumps: relay-emulator clone --url URL --out DIR ADDRESS...
  shims DIR     write DIR/solana-test-validator, DIR/solana and DIR/surfpool, which run this emulator
  solana        the Solana CLI's logs, balance, airdrop, account and address, against the emulator
  surfpool      Surfpool's start, as test-validator runs it
  conformance   run the conformance kit against a relay's base URL (relay-emulator conformance --help)
  export        write a running emulator's state to a file: relay-emulator export --url ORIGIN > state.json
  import        load a state file into a running emulator: relay-emulator import --url ORIGIN state.json

relay-emulator --version prints the version.
`;

/**
 * The command line: dispatches to a command and resolves with the exit code. Each command is
 * imported when it runs, so that --version and --help load nothing but this file and package.json.
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start': {
      const { runStartCommand } = await import('./start/start-command.ts');
      return runStartCommand(rest);
    }
    case 'test-validator': {
      const { runTestValidatorCommand } = await import('./test-validator/test-validator-command.ts');
      return runTestValidatorCommand(rest);
    }
    case 'costs': {
      const { runCostsCommand } = await import('./costs/costs-command.ts');
      return runCostsCommand(rest, io());
    }
    case 'clone': {
      const { runCloneCommand } = await import('./clone/clone-command.ts');
      return runCloneCommand(rest, io());
    }
    case 'shims': {
      const { runShimsCommand } = await import('./shims/shims-command.ts');
      return runShimsCommand(rest, io());
    }
    case 'solana': {
      const { runSolanaCommand } = await import('./shims/solana-command.ts');
      // `solana logs` waits for a stdout that blocks (a paused pipe) instead of buffering without end.
      return runSolanaCommand(rest, {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
        env: process.env,
        whenDrained: () => new Promise((resolve) => process.stdout.once('drain', () => resolve())),
      });
    }
    case 'surfpool': {
      const { runSurfpoolCommand } = await import('./shims/surfpool-command.ts');
      return runSurfpoolCommand(rest);
    }
    case 'exec': {
      const { runExecCommand } = await import('./exec/exec-command.ts');
      return runExecCommand(rest);
    }
    case 'conformance': {
      const { runConformanceCommand } = await import('../../conformance/command.ts');
      return runConformanceCommand(rest);
    }
    case 'export':
    case 'import': {
      const { runStateCommand } = await import('./state/state-commands.ts');
      return runStateCommand(command, rest);
    }
    case '--version':
    case '-v':
      process.stdout.write(`${EMULATOR_VERSION}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`relay-emulator: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

function io(): { stdout: (text: string) => void; stderr: (text: string) => void } {
  return { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };
}

/** Runs the command line and exits with its code. */
export function run(argv: string[] = process.argv.slice(2)): void {
  main(argv).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

// Run when executed directly (npm start: node --import tsx src/adapters/cli/main.ts start); the bin calls run() itself.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) run();
