/**
 * The command line as a test runner and a terminal use it, from source (test/package/package.test.ts runs
 * the packed bin): `exec`, `--ready-file`, `--no-rpc-auth`, and stopping through `npm start`, the
 * quick start's command, by SIGTERM to npm and by Ctrl+C.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ARGS } from '../support/cli-process.ts';
import { readmeBlock } from '../support/readme.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const MINUTE = 60_000;

interface Ran {
  code: number | null;
  output: string;
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, RUST_LOG: 'error', RELAY_EMULATOR_PORT: '0', ...extra };
}

/** Runs the CLI from source to its end. */
function cli(args: string[], extra: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], { cwd: REPO, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 2 * MINUTE);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A node script for `exec` to run, as argv. */
const nodeScript = (source: string) => ['--', process.execPath, '-e', source];

describe('relay-emulator exec', () => {
  it(
    'gives the command the emulator’s URLs, key and fee payer, exits with its code, and stops the emulator',
    async () => {
      const script = `
      const { RELAY_BASE_URL, RELAY_RPC_URL, RELAY_API_KEY, RELAY_FEE_PAYER, RELAY_KORA_URL } = process.env;
      const config = await (await fetch(RELAY_BASE_URL + '/Transaction/config', { headers: { 'X-API-Key': RELAY_API_KEY } })).json();
      const body = JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getPayerSigner' });
      const call = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body };
      const kora = await (await fetch(RELAY_KORA_URL, call)).json();
      const koraSigner = kora.result.signer_address;
      const seen = { RELAY_BASE_URL, RELAY_RPC_URL, RELAY_FEE_PAYER, RELAY_KORA_URL, koraSigner };
      console.log(JSON.stringify({ ...seen, rpcUrl: config.RpcUrl, feePayer: config.FeePayer }));
      process.exit(7);`;
      const ran = await cli(['exec', ...nodeScript(script)]);
      expect(ran.code, ran.output).toBe(7);
      const seen = JSON.parse(ran.output.match(/^\{.*\}$/m)![0]) as Record<string, string>;
      expect(seen.RELAY_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      expect(seen.rpcUrl).toBe(seen.RELAY_RPC_URL);
      expect(seen.feePayer).toBe(seen.RELAY_FEE_PAYER);
      expect(seen.RELAY_KORA_URL).toBe(`${new URL(seen.RELAY_BASE_URL!).origin}/kora`);
      expect(seen.koraSigner).toBe(seen.RELAY_FEE_PAYER);
      // Stopped once the command ended: nothing answers there any more.
      await expect(fetch(`${seen.RELAY_BASE_URL}/Transaction/config`)).rejects.toThrow();
      // Quiet by default: no banner, no request lines, on either stream.
      expect(ran.output).not.toMatch(/listening on|GET \/api/);
    },
    2 * MINUTE,
  );

  it(
    'answers 128 + n when signal n ended the command, 127 when it cannot be found, 2 without a command',
    async () => {
      const [killed, missing, usage] = await Promise.all([
        cli(['exec', ...nodeScript("process.kill(process.pid, 'SIGTERM')")]),
        cli(['exec', '--', 'relay-emulator-no-such-command']),
        cli(['exec', '--port', '0']),
      ]);
      expect(killed.code, killed.output).toBe(143);
      expect(missing.code, missing.output).toBe(127);
      expect(missing.output).toContain('cannot run relay-emulator-no-such-command');
      expect(usage.code).toBe(2);
      expect(usage.output).toContain('give the command to run after --');
    },
    2 * MINUTE,
  );

  it(
    'passes SIGTERM on to the command, then stops the emulator and exits with the command’s code',
    async () => {
      // The command reports its own pid, then waits for SIGTERM and exits 5 on it.
      const script = "process.on('SIGTERM', () => process.exit(5)); console.log('pid ' + process.pid); setInterval(() => {}, 1000);";
      const child = spawn(process.execPath, [...CLI_ARGS, 'exec', ...nodeScript(script)], { cwd: REPO, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const started = new Promise<number>((resolve) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const pid = output.match(/^pid (\d+)$/m);
          if (pid) resolve(Number(pid[1]));
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const commandPid = await started;
      child.kill('SIGTERM');
      expect(await exited, output).toBe(5);
      expect(isRunning(commandPid)).toBe(false);
    },
    2 * MINUTE,
  );
});

describe('relay-emulator start --ready-file and --no-rpc-auth', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-ready-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it(
    'writes the ready facts once it answers, serves the RPC without a Token, and removes the file on exit',
    async () => {
      const readyFile = join(directory, 'nested', 'ready.json');
      const child = spawn(process.execPath, [...CLI_ARGS, 'start', '--no-rpc-auth', '--log-level', 'warn'], {
        cwd: REPO,
        env: env({ RELAY_EMULATOR_READY_FILE: readyFile }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        await expect.poll(() => existsSync(readyFile), { timeout: MINUTE, interval: 100 }).toBe(true);
        const facts = JSON.parse(readFileSync(readyFile, 'utf8')) as Record<string, unknown>;
        expect(facts).toMatchObject({ rpcAuth: 'off', adminToken: null, pid: child.pid, warnings: [] });
        expect(facts.baseUrl).toBe(`${facts.origin}/api`);
        // --port 0 takes two consecutive free ports: PubSub is also on the next one, where web3.js and gill look.
        const port = Number(new URL(String(facts.origin)).port);
        expect(facts.pubsubUrl).toBe(`ws://127.0.0.1:${port + 1}/rpc`);
        // The solana CLI's way: JSON-RPC with no Authorization header.
        const response = await fetch(String(facts.rpcUrl), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' }),
        });
        expect(response.status).toBe(200);
        expect(((await response.json()) as { result: unknown }).result).toEqual(expect.any(Number));
        child.kill('SIGTERM');
        expect(await exited, output).toBe(0);
        expect(existsSync(readyFile)).toBe(false);
      } finally {
        child.kill('SIGKILL');
      }
    },
    2 * MINUTE,
  );
});

describe('npm start (the quick start), stopped', () => {
  const quickStart = readmeBlock('Quick start').code;

  /** Runs the README's `npm start` in its own process group, as a terminal's foreground job, until its ready line. */
  async function npmStart() {
    expect(quickStart).toContain('npm ci && npm start');
    const child = spawn('npm', ['start'], { cwd: REPO, env: env(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const ready = new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.match(/^relay-emulator ready (\{.*\})$/m);
        if (line) resolve((JSON.parse(line[1]!) as { pid: number }).pid);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', () => reject(new Error(`npm start exited before the ready line:\n${output}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, nodePid: await ready, exited, output: () => output };
  }

  it(
    'SIGTERM to npm reaches node: npm exits 0 and nothing is left holding the port',
    async () => {
      const started = await npmStart();
      try {
        started.child.kill('SIGTERM');
        expect(await started.exited, started.output()).toBe(0);
        await expect.poll(() => isRunning(started.nodePid), { timeout: 10_000 }).toBe(false);
        expect(started.output()).toContain('SIGTERM: shutting down');
      } finally {
        if (started.child.exitCode === null && started.child.signalCode === null) process.kill(-started.child.pid!, 'SIGKILL');
      }
    },
    3 * MINUTE,
  );

  it(
    'Ctrl+C (SIGINT to the process group; npm forwards it again) exits 0, shutting down once',
    async () => {
      const started = await npmStart();
      try {
        process.kill(-started.child.pid!, 'SIGINT');
        expect(await started.exited, started.output()).toBe(0);
        await expect.poll(() => isRunning(started.nodePid), { timeout: 10_000 }).toBe(false);
        expect(started.output().match(/SIGINT: shutting down/g)).toHaveLength(1);
        expect(started.output()).not.toContain('again');
      } finally {
        if (started.child.exitCode === null && started.child.signalCode === null) process.kill(-started.child.pid!, 'SIGKILL');
      }
    },
    3 * MINUTE,
  );
});
