import { Keypair } from '@solana/web3.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ARGS } from '../support/cli-process.ts';
import { freePort, spawnEmulator, untilHealthy, type EmulatorProcess } from '../support/emulator-process.ts';

/**
 * One state file, one process. A second `relay-emulator start` on a state file another live
 * process serves must refuse to start: were it to run, each would journal into its own segments and
 * each compaction would delete the other's, so that what the first acknowledged after the second
 * started was lost on the next restart. A lock left by a process killed with SIGKILL is taken over.
 */
describe('a state file in use by another process', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-lock-'));
  const processes: EmulatorProcess[] = [];
  afterAll(async () => {
    for (const started of processes) await started.stop('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  });
  const start = async (stateFile: string) => {
    const started = spawnEmulator({ port: await freePort(), args: ['--state-file', stateFile, '--state-interval', '1', '--log-level', 'warn'] });
    processes.push(started);
    return started;
  };
  const faucet = async (origin: string, address: string, lamports: number) =>
    (
      await fetch(`${origin}/__emulator/faucet`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ address, lamports }),
      })
    ).status;
  const lamportsOf = async (origin: string, address: string) => {
    const response = await fetch(`${origin}/__emulator/accounts/${address}`);
    return response.status === 404 ? null : String(((await response.json()) as { lamports: number | string }).lamports);
  };
  const address = (seed: number) => Keypair.fromSeed(Buffer.alloc(32, seed)).publicKey.toBase58();

  it('refuses a second process, keeps what the first acknowledged, and takes over the lock of a killed one', async () => {
    const stateFile = join(directory, 'state.json');
    const first = await start(stateFile);
    await untilHealthy(first.origin);
    expect(await faucet(first.origin, address(1), 1_000_000)).toBe(200);

    const second = await start(stateFile);
    // Bounded either way: it exits, or (the defect) it serves the same file.
    const served = untilHealthy(second.origin, 30_000).then(
      () => 'served',
      () => 'never served',
    );
    expect(await Promise.race([second.exited, served])).toBe(1);
    expect(second.output()).toMatch(new RegExp(`cannot restore .*state\\.json: it is in use by process ${first.child.pid}`));

    // The first goes on; a compaction (every second) runs meanwhile; then it dies without saving.
    expect(await faucet(first.origin, address(2), 2_000_000)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await first.stop('SIGKILL')).toBe('SIGKILL');
    expect(existsSync(`${stateFile}.lock`)).toBe(true);

    // Its lock names a dead process: the restart takes it over, and has everything acknowledged.
    const third = await start(stateFile);
    await untilHealthy(third.origin);
    expect(await lamportsOf(third.origin, address(1))).toBe('1000000');
    expect(await lamportsOf(third.origin, address(2))).toBe('2000000');
    // A clean stop lets the next process in.
    expect(await third.stop('SIGTERM')).toBe(0);
    expect(existsSync(`${stateFile}.lock`)).toBe(false);
  }, 120_000);
});

/**
 * Issue 24.5: four processes start at one moment on a state file whose lock a dead process left.
 * Exactly one may take it; before the lock was taken atomically, two often did (one deleted the
 * lock another had just created).
 */
describe('the state lock raced by processes', () => {
  it('goes to exactly one of four processes that race for a stale lock, in every trial', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-lock-race-'));
    const trials = 30;
    const racer = fileURLToPath(new URL('../support/lock-racer.ts', import.meta.url));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const racers = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', racer, directory, String(trials)], { stdio: 'ignore' }));
    try {
      const outcomes: string[][] = [];
      for (let trial = 0; trial < trials; trial += 1) {
        // The lock a killed process left: its PID is gone.
        writeFileSync(join(directory, `state-${trial}.lock`), `${JSON.stringify({ pid: dead })}\n`);
        writeFileSync(join(directory, `go-${trial}`), '');
        const results = racers.map(({ pid }) => join(directory, `result-${trial}-${pid}`));
        const deadline = Date.now() + 60_000;
        while (!results.every((path) => existsSync(path)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
        outcomes.push(results.map((path) => (existsSync(path) ? readFileSync(path, 'utf8') : 'no answer')).sort());
      }
      const expected = ['refused', 'refused', 'refused', 'took'];
      expect(outcomes.filter((outcome) => outcome.join() !== expected.join())).toEqual([]);
    } finally {
      for (const child of racers) child.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
    }
  }, 180_000);
});

/**
 * Issue 45, item 8: an emulator killed but never reaped (a zombie: its parent does not wait for it,
 * as a container's or micro-VM's init may not) still answers `kill(pid, 0)`, and held the lock
 * against every later start. Here its parent is `sleep`, which never reaps: the shell starts the
 * emulator in the background and then becomes `sleep` (exec).
 */
describe('the lock of a zombie', () => {
  it('is taken over, as a dead process’s is', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-lock-zombie-'));
    const stateFile = join(directory, 'state.json');
    const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, ...CLI_ARGS, 'start', '--port', '0', '--state-file', stateFile, '--log-level', 'warn'].map(quote).join(' ');
    const parent = spawn('sh', ['-c', `${command} > /dev/null 2>&1 & exec sleep 120`], { stdio: 'ignore', env: { ...process.env, RUST_LOG: 'error' } });
    let next: EmulatorProcess | null = null;
    try {
      await expect.poll(() => existsSync(`${stateFile}.lock`), { timeout: 60_000, interval: 100 }).toBe(true);
      const { pid } = JSON.parse(readFileSync(`${stateFile}.lock`, 'utf8')) as { pid: number };
      process.kill(pid, 'SIGKILL');
      const state = () => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch {
          return 'gone';
        }
      };
      await expect.poll(state, { timeout: 10_000 }).toBe('Z');
      next = spawnEmulator({ port: await freePort(), args: ['--state-file', stateFile, '--log-level', 'warn'] });
      await untilHealthy(next.origin);
      expect(state()).toBe('Z');
    } finally {
      await next?.stop('SIGKILL');
      parent.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
