/**
 * Cold start (issue 36), in fresh node processes, paired rounds:
 * - import: `await import('relay-emulator')` (the built package, dist/) and the first
 *   `createRelayEmulator()`, against `await import('litesvm')` and `new LiteSVM()`;
 * - start-up of the command: `relay-emulator start` (bin/, dist/) until its ready file exists,
 *   against a bare node that imports litesvm, makes a LiteSVM and listens on a port, until its
 *   ready file exists.
 * Each process times itself from its first line for the imports (what a test file pays); the
 * command's rounds are timed from spawn (what a CI step waits for).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ColdStartMeasurement } from './figures.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DIST_INDEX = join(REPO, 'dist', 'index.js');
const BIN = join(REPO, 'bin', 'relay-emulator.mjs');

/** A module script run in a fresh process from the repository (so `litesvm` resolves); prints one number. */
function timed(script: string): number {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8', env: { ...process.env, RUST_LOG: 'error' } });
  if (run.status !== 0) throw new Error(`cold-start probe failed (${run.status}): ${run.stderr}`);
  const ms = Number(run.stdout.trim().split('\n').at(-1));
  if (!Number.isFinite(ms)) throw new Error(`cold-start probe printed ${JSON.stringify(run.stdout)}`);
  return ms;
}

const EMULATOR_PROBE = `
const started = performance.now();
const { createRelayEmulator } = await import(${JSON.stringify(DIST_INDEX)});
const emulator = await createRelayEmulator();
console.log(performance.now() - started);
await emulator.close();
`;

const LITESVM_PROBE = `
const started = performance.now();
const { LiteSVM } = await import('litesvm');
new LiteSVM();
console.log(performance.now() - started);
`;

/** Milliseconds from spawn until `file` exists (polled every 2 ms); the process is then stopped. */
async function untilReady(command: string, args: string[], file: string): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: REPO, stdio: 'ignore', env: { ...process.env, RUST_LOG: 'error' } });
  try {
    for (let waited = 0; waited < 60_000; waited += 2) {
      if (existsSync(file)) return performance.now() - started;
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode} before it was ready`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error(`${args.join(' ')}: not ready within a minute`);
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(undefined)));
  }
}

const BARE_SERVER = (file: string) => `
const { LiteSVM } = await import('litesvm');
new LiteSVM();
const { createServer } = await import('node:http');
const { writeFileSync } = await import('node:fs');
const server = createServer((request, response) => response.end('{}'));
server.listen(0, '127.0.0.1', () => writeFileSync(${JSON.stringify(file)}, JSON.stringify({ port: server.address().port })));
`;

/** A bare node that imports litesvm, makes a LiteSVM and answers getLatestBlockhash over HTTP on `port`. */
const BARE_VALIDATOR = (port: number) => `
const { LiteSVM } = await import('litesvm');
const svm = new LiteSVM();
const { createServer } = await import('node:http');
createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const value = { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 150 };
    response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { context: { slot: 1 }, value } }));
  });
}).listen(${port}, '127.0.0.1');
`;

/** Milliseconds from spawn until the RPC on `port` answers getLatestBlockhash (polled every 5 ms, as anchor test polls every 100); then stopped. */
async function untilBlockhash(command: string, args: string[], port: number): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: REPO, stdio: 'ignore', env: { ...process.env, RUST_LOG: 'error' } });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getLatestBlockhash', params: [{ commitment: 'confirmed' }] });
  try {
    for (let waited = 0; waited < 60_000; waited += 5) {
      const answered = await fetch(`http://127.0.0.1:${port}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (response) => ((await response.json()) as { result?: { value?: { blockhash?: string } } }).result?.value?.blockhash !== undefined,
        () => false,
      );
      if (answered) return performance.now() - started;
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode} before it answered`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`${args.join(' ')}: no blockhash within a minute`);
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(undefined)));
  }
}

/** A port free a moment ago, and the next (test-validator takes both). */
async function freePorts(): Promise<number> {
  const { createServer } = await import('node:net');
  for (;;) {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: found } = probe.address() as { port: number };
        probe.close(() => resolve(found));
      });
    });
    const next = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once('error', () => resolve(false))
        .listen(port + 1, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (next) return port;
  }
}

/** Builds dist/ (what a user imports), then times `rounds` pairs of each. */
export async function measureColdStart(rounds: number): Promise<ColdStartMeasurement> {
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
  const measured: ColdStartMeasurement = { importMs: [], bareImportMs: [], startMs: [], bareStartMs: [], validatorMs: [], bareValidatorMs: [] };
  const dir = mkdtempSync(join(tmpdir(), 'relay-emulator-cold-'));
  try {
    for (let round = 0; round < rounds; round += 1) {
      measured.bareImportMs.push(timed(LITESVM_PROBE));
      measured.importMs.push(timed(EMULATOR_PROBE));
      const bareFile = join(dir, `bare-${round}.json`);
      measured.bareStartMs.push(await untilReady(process.execPath, ['--input-type=module', '-e', BARE_SERVER(bareFile)], bareFile));
      const readyFile = join(dir, `ready-${round}.json`);
      measured.startMs.push(await untilReady(process.execPath, [BIN, 'start', '--port', '0', '--ready-file', readyFile, '--log-level', 'warn'], readyFile));
      // test-validator as anchor test starts it (a fresh ledger folder), until getLatestBlockhash answers.
      const barePort = await freePorts();
      measured.bareValidatorMs.push(await untilBlockhash(process.execPath, ['--input-type=module', '-e', BARE_VALIDATOR(barePort)], barePort));
      const port = await freePorts();
      const ledger = join(dir, `ledger-${round}`);
      measured.validatorMs.push(
        await untilBlockhash(process.execPath, [BIN, 'test-validator', '--ledger', ledger, '--rpc-port', String(port), '--quiet'], port),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return measured;
}
