import type { LaunchIo } from './launch.ts';
import { ignoreStopSignals, NPM_SIGNAL_LINGER_MS, onStopSignals, REPEAT_WINDOW_MS, signalExitCode, type SignalSource } from './signals.ts';
import type { StartOptions } from '../start/start-options.ts';

export interface ServeIo {
  env?: NodeJS.ProcessEnv;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Where shutdown signals come from. Default: process. */
  signals?: SignalSource;
}

/**
 * Serves the emulator until SIGINT, SIGTERM or SIGHUP, then stops accepting requests, lets those
 * in flight answer, saves the state file and closes: exit code 0. The same signal again within a
 * second is the same request (see REPEAT_WINDOW_MS); a later one exits at once with 128 + the
 * signal's number, without saving. Resolves with the exit code. `start` and `test-validator` (and
 * Surfpool's `start`) run it; `launch` says how the emulator announces itself.
 */
export async function serveUntilStopped(options: StartOptions, io: ServeIo & Partial<Pick<LaunchIo, 'banner' | 'log' | 'onReady'>>): Promise<number> {
  const stdout = io.stdout ?? ((text) => process.stdout.write(text));
  const stderr = io.stderr ?? ((text) => process.stderr.write(text));
  // Imported here, past --help and usage errors: it loads the emulator.
  const { launch } = await import('./launch.ts');
  const signals = io.signals ?? process;
  // Listening before launch: launch prints the ready line, and whoever reads it may signal at once.
  // A stop signal that arrives while launching is acted on once the emulator is up.
  let stopRequested: NodeJS.Signals | null = null;
  let onStop: (signal: NodeJS.Signals) => void = (signal) => {
    stopRequested ??= signal;
  };
  const stopListening = onStopSignals(signals, (signal) => onStop(signal));
  const launched = await launch(options, {
    stdout,
    stderr,
    announce: true,
    ...(io.banner ? { banner: io.banner } : {}),
    ...(io.log ? { log: io.log } : {}),
    ...(io.onReady ? { onReady: io.onReady } : {}),
  });
  if (typeof launched === 'number') {
    stopListening();
    return launched;
  }
  const { log } = launched;
  return new Promise<number>((done) => {
    let firstAt: number | null = null;
    const finish = (code: number) => {
      stopListening();
      ignoreStopSignals(signals);
      done(code);
    };
    onStop = (signal) => {
      if (firstAt === null) {
        firstAt = Date.now();
        log.info(`${signal}: shutting down`);
        // Under npm, a Ctrl+C reached npm as well: let it handle its copy while this child still runs.
        const linger = signal === 'SIGINT' && (io.env ?? process.env).npm_lifecycle_event !== undefined ? NPM_SIGNAL_LINGER_MS : 0;
        launched.shutdown().then(
          () => setTimeout(() => finish(0), Math.max(0, firstAt! + linger - Date.now())),
          (error: unknown) => {
            stderr(`relay-emulator: shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
            finish(1);
          },
        );
        return;
      }
      if (Date.now() - firstAt < REPEAT_WINDOW_MS) return;
      log.warn(`${signal} again: exiting without waiting`);
      finish(signalExitCode(signal));
    };
    if (stopRequested !== null) onStop(stopRequested);
  });
}
