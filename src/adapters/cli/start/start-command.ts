import { serveUntilStopped, type ServeIo } from '../launch/serve.ts';
import { parseStartOptions, startUsage, UsageError } from './start-options.ts';

export type StartIo = ServeIo;

/**
 * `relay-emulator start`: serves the emulator until SIGINT, SIGTERM or SIGHUP, then stops accepting
 * requests, lets those in flight answer, saves the state file and closes: exit code 0. The same
 * signal again within a second is the same request (see REPEAT_WINDOW_MS); a later one exits at once
 * with 128 + the signal's number, without saving. Resolves with the exit code.
 */
export async function runStartCommand(argv: string[], io: StartIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((text) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text) => process.stderr.write(text));
  let options: ReturnType<typeof parseStartOptions>;
  try {
    options = parseStartOptions(argv, io.env ?? process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // One line, as every refusal at start: the options are a --help away, not printed over the error.
    stderr(`relay-emulator start: ${error.message} (relay-emulator start --help lists the options)\n`);
    return 2;
  }
  if (options.help) {
    stdout(startUsage());
    return 0;
  }

  return serveUntilStopped(options, { ...io, stdout, stderr });
}
