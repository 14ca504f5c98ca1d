import { constants } from 'node:os';

/** The signals that stop the emulator cleanly: Ctrl+C, `kill`/`docker stop`, and a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const satisfies readonly NodeJS.Signals[];

/**
 * A repeat of a stop signal within this long is the same request arriving twice, not a second one:
 * Ctrl+C sends SIGINT to the terminal's whole foreground process group, and `npm start` (npm's
 * run-script) forwards the SIGINT it got to its child as well, so the emulator sees two at once.
 */
export const REPEAT_WINDOW_MS = 1_000;

/**
 * Under `npm start`, how long after a Ctrl+C the emulator lingers before it exits. Ctrl+C signals
 * npm too, and npm's run-script forwards it only while its child is alive: when the child has
 * exited before npm's own handler runs (a busy machine, a quick shutdown), npm finds no child, no
 * longer handles the signal, and dies of it, so the shell sees a signal instead of exit code 0
 * (seen once in four clean-clone CI runs). Waiting lets npm handle its copy first.
 */
export const NPM_SIGNAL_LINGER_MS = 500;

export type SignalSource = Pick<NodeJS.Process, 'on' | 'off'>;

/** Listens for the stop signals on `source`; returns the function that stops listening. */
export function onStopSignals(source: SignalSource, listener: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of STOP_SIGNALS) source.on(signal, listener);
  return () => {
    for (const signal of STOP_SIGNALS) source.off(signal, listener);
  };
}

/**
 * From now until the process exits, stop signals do nothing. Called once a command is done and only
 * the exit is left: a late duplicate (npm's forwarded SIGINT, on a busy machine) arriving between the
 * last listener's removal and process.exit() would otherwise kill the process by the signal, and npm,
 * seeing its child killed, would kill itself with it.
 */
export function ignoreStopSignals(source: SignalSource): void {
  onStopSignals(source, () => undefined);
}

/** The exit code of a process that a signal ended: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}
