import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** The CLI from source, as `npm start` runs it (the packed bin runs dist/: test/package/package.test.ts). */
const MAIN = fileURLToPath(new URL('../../src/adapters/cli/main.ts', import.meta.url));
/** tsx's loader by its path (its package's "." export), so that a child started in another folder (an Anchor workspace) finds it. */
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
/**
 * How a test runs `relay-emulator`: the CLI compiled once for this run by the project's global setup
 * (test/support/build-cli.ts), or, in a project without it, the sources through tsx.
 */
const BUILT = inject('builtCli');
export const CLI_ARGS = BUILT === undefined ? ['--import', TSX, MAIN] : [BUILT];

export interface CliProcess {
  child: ChildProcess;
  /** From the banner. */
  origin: string;
  baseUrl: string;
  rpcUrl: string;
  apiKey: string;
  /** The admin token the banner printed, or null when the controls are open. */
  adminToken: string | null;
  /** The machine-readable ready line's facts. */
  ready: Record<string, unknown>;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves when the output matches `pattern` (rejects after `timeoutMs`). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs `relay-emulator start --port 0 ...args` as a child process, as `npx relay-emulator` does, and waits for its ready line. */
export async function startCli(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliProcess> {
  const child = spawn(process.execPath, [...CLI_ARGS, 'start', '--port', '0', ...args], {
    env: { ...process.env, RUST_LOG: 'error', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of [...listeners]) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Never leave an emulator behind when the test process goes away first.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));

  const waitForOutput = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = output.match(pattern);
        if (!match) return;
        cleanup();
        resolve(match);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${pattern} in the emulator's output within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const onExit = () => {
        cleanup();
        reject(new Error(`the emulator exited before printing ${pattern}:\n${output}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off('exit', onExit);
      };
      listeners.add(check);
      child.once('exit', onExit);
      check();
    });

  const [, readyJson] = await waitForOutput(/^relay-emulator ready (\{.*\})\n/m);
  const row = (label: string) => output.match(new RegExp(`^\\s+${label}\\s+(\\S+)`, 'm'))?.[1] ?? '';
  const baseUrl = row('Base URL');
  return {
    child,
    origin: new URL(baseUrl).origin,
    baseUrl,
    rpcUrl: row('RPC URL'),
    apiKey: row('API key'),
    adminToken: output.match(/X-Admin-Token: ([^)\s]+)\)/)?.[1] ?? null,
    ready: JSON.parse(readyJson!) as Record<string, unknown>,
    output: () => output,
    waitForOutput,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `relay-emulator ...args` to its end (a command that exits: a refused start, export): its exit code, stdout and stderr. */
export function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
