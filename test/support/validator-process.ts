import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { CLI_ARGS } from './cli-process.ts';
import { rpcAt } from './json-rpc.ts';

const MINUTE = 60_000;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `relay-emulator …args` in `cwd` with `env` added; killed after `ms`. Resolves with its exit code and output. */
export function runCli(args: string[], { cwd, env = {}, ms = MINUTE }: { cwd: string; env?: Record<string, string>; ms?: number }): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
      cwd,
      env: { ...process.env, RUST_LOG: 'error', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A test-validator (or surfpool) child on `port`, ready once its RPC answers; stopped by its own PID. */
export async function serveCli(args: string[], port: number, { cwd, env = {} }: { cwd: string; env?: Record<string, string> }) {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], { cwd, env: { ...process.env, RUST_LOG: 'error', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  // Never leave one behind when the test process goes away first.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  const rpc = rpcAt(`http://127.0.0.1:${port}`);
  await expect
    .poll(
      () =>
        rpc('getLatestBlockhash').then(
          () => true,
          () => false,
        ),
      { timeout: MINUTE, interval: 100 },
    )
    .toBe(true);
  const stop = (signal: NodeJS.Signals) => {
    child.kill(signal);
    return exited;
  };
  return { child, rpc, output: () => output, exited, stop };
}
