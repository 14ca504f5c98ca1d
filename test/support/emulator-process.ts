import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CLI_ARGS } from './cli-process.ts';

/**
 * `relay-emulator start` as the tests run it (CLI_ARGS: compiled once per run, or the sources; the packed bin
 * is test/package/package.test.ts's) as a child process on a port chosen beforehand, for tests that kill it and
 * start it again on the same port and state file, and that talk to it while it starts (before any
 * banner). Only 127.0.0.1; the process is killed by its own PID, and reaped if the test process
 * goes away first.
 */
export interface EmulatorProcess {
  child: ChildProcess;
  origin: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code, or the signal's name when it was killed by one. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** Sends `signal` (to this PID only) and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<number | NodeJS.Signals | null>;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export function spawnEmulator(options: { port: number; args?: string[] }): EmulatorProcess {
  const child = spawn(process.execPath, [...CLI_ARGS, 'start', '--host', '127.0.0.1', '--port', String(options.port), ...(options.args ?? [])], {
    env: { ...process.env, RUST_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => {
      process.off('exit', reap);
      resolve(code ?? signal);
    }),
  );
  return {
    child,
    origin: `http://127.0.0.1:${options.port}`,
    output: () => output,
    exited,
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Polls GET /health until it answers 200 (at most `timeoutMs`), noting each status seen on the way
 * (-1: no connection, or no answer within 5 s). Given the process rather than its origin, a failure
 * also says whether it exited, and the end of what it wrote.
 */
export async function untilHealthy(target: string | EmulatorProcess, timeoutMs = 60_000): Promise<number[]> {
  const origin = typeof target === 'string' ? target : target.origin;
  const seen: number[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let status = -1;
    try {
      status = (await fetch(`${origin}/health`, { signal: AbortSignal.timeout(5_000) })).status;
    } catch {
      // Not listening yet (or any more).
    }
    if (seen.at(-1) !== status) seen.push(status);
    if (status === 200) return seen;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const failure = `${origin}/health did not answer 200 within ${timeoutMs} ms (seen: ${seen.join(', ')})`;
  if (typeof target === 'string') throw new Error(failure);
  const { exitCode, signalCode } = target.child;
  const state = exitCode === null && signalCode === null ? 'still running' : `exited (${exitCode ?? signalCode})`;
  throw new Error(`${failure}; the process is ${state}; its output ends:\n${target.output().slice(-4_000)}`);
}
