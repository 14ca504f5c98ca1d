import { spawn } from 'node:child_process';

const MINUTE = 60_000;

/** How a command ended, with everything it printed. */
export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** The environment a user's shell would have: none of this run's vitest or npm variables; a free port for every emulator. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^(VITEST|__VITEST|npm_|NODE_OPTIONS$|TINYPOOL)/i.test(name)) env[name] = value;
  return { ...env, RUST_LOG: 'error', RELAY_EMULATOR_PORT: '0', NO_COLOR: '1', ...extra };
}

/** Runs a command to its end (killed after `timeoutMs`); never rejects on a failing exit code. */
export function run(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 3 * MINUTE);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}
