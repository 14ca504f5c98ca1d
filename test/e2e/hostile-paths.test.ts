/**
 * Issue 53: every flag that takes a path, through the same hostile paths (decision 0010). For each
 * row of test/support/path-flags.ts and each case below, the command is run as a user runs it; it
 * must end by itself (no blocking open of a FIFO, no spin under /proc), refuse in one line without
 * a stack (or, where the row accepts the case, go on), and leave what was there as it was. A flag
 * added to a command without a row fails the first test.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ARGS, startCli, type CliProcess } from '../support/cli-process.ts';
import { freePort } from '../support/emulator-process.ts';
import { everyStringFlag, NOT_PATHS, PATH_FLAGS, type PathFlagRow, type Reach, startPathFlags } from '../support/path-flags.ts';

const root = mkdtempSync(join(tmpdir(), 'relay-emulator-hostile-paths-'));
const FOREIGN = 'a file of the user’s\n';

interface Case {
  name: string;
  /** Makes the hostile path (under `dir`) and returns it, with a check that what was there is as it was. */
  make(dir: string): { path: string; untouched(): void };
}

/** A folder nothing can be written into, even by root: immutable where the file system allows, else under /sys. */
function readOnlyFolder(dir: string): string {
  const folder = join(dir, 'read-only');
  mkdirSync(folder);
  chmodSync(folder, 0o555);
  if (process.getuid?.() !== 0) return folder;
  try {
    execFileSync('chattr', ['+i', folder], { stdio: 'ignore' });
    return folder;
  } catch {
    return '/sys/kernel';
  }
}

const CASES: readonly Case[] = [
  {
    name: 'a foreign file',
    make(dir) {
      const path = join(dir, 'foreign.txt');
      writeFileSync(path, FOREIGN);
      return { path, untouched: () => expect(readFileSync(path, 'utf8')).toBe(FOREIGN) };
    },
  },
  {
    name: 'a link to a foreign file',
    make(dir) {
      const target = join(dir, 'target.txt');
      writeFileSync(target, FOREIGN);
      const path = join(dir, 'link');
      symlinkSync(target, path);
      return {
        path,
        untouched: () => {
          expect(readlinkSync(path)).toBe(target);
          expect(readFileSync(target, 'utf8')).toBe(FOREIGN);
        },
      };
    },
  },
  {
    name: 'a dangling link',
    make(dir) {
      const target = join(dir, 'nowhere');
      const path = join(dir, 'dangling');
      symlinkSync(target, path);
      return {
        path,
        untouched: () => {
          expect(readlinkSync(path)).toBe(target);
          expect(existsSync(target)).toBe(false);
        },
      };
    },
  },
  {
    name: 'a folder',
    make(dir) {
      const path = join(dir, 'folder');
      mkdirSync(path);
      writeFileSync(join(path, 'keep.json'), FOREIGN);
      return { path, untouched: () => expect(readFileSync(join(path, 'keep.json'), 'utf8')).toBe(FOREIGN) };
    },
  },
  {
    name: 'a FIFO',
    make(dir) {
      const path = join(dir, 'fifo');
      execFileSync('mkfifo', [path]);
      return { path, untouched: () => expect(lstatSync(path).isFIFO()).toBe(true) };
    },
  },
  {
    name: 'a character device',
    make(dir) {
      if (process.getuid?.() !== 0) return { path: '/dev/null', untouched: () => expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true) };
      // A twin of /dev/null of the test's own, so that nothing the machine uses is named.
      const path = join(dir, 'device');
      execFileSync('mknod', [path, 'c', '1', '3']);
      return { path, untouched: () => expect(lstatSync(path).isCharacterDevice()).toBe(true) };
    },
  },
  {
    name: 'a path under /proc',
    make: () => ({ path: '/proc/relay-emulator-nope/x', untouched: () => expect(existsSync('/proc/relay-emulator-nope')).toBe(false) }),
  },
  {
    name: 'a read-only folder',
    make(dir) {
      const folder = readOnlyFolder(dir);
      const path = join(folder, 'inside');
      return { path, untouched: () => expect(existsSync(path)).toBe(false) };
    },
  },
  {
    name: 'a name with ..',
    make(dir) {
      mkdirSync(join(dir, 'sub'));
      const foreign = join(dir, 'dotdot.txt');
      writeFileSync(foreign, FOREIGN);
      return { path: join(dir, 'sub', '..', 'dotdot.txt'), untouched: () => expect(readFileSync(foreign, 'utf8')).toBe(FOREIGN) };
    },
  },
];

interface Outcome {
  code: number | null;
  served: boolean;
  hung: boolean;
  stderr: string;
}

/** Runs the command until it ends; one that serves is stopped once ready (SIGTERM); one that neither ends nor serves in 60 s has hung. */
function run(args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
      cwd,
      env: { ...process.env, HOME: join(cwd, 'home'), RUST_LOG: 'error', RELAY_EMULATOR_CLONE_CACHE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let served = false;
    let hung = false;
    const onOutput = () => {
      if (!served && /relay-emulator ready |^JSON RPC URL: /m.test(stdout + stderr)) {
        served = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onOutput();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onOutput();
    });
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, served, hung, stderr });
    });
  });
}

describe('every path-taking flag, through hostile paths', () => {
  let cluster: CliProcess;
  const reach = {} as Reach;

  beforeAll(async () => {
    cluster = await startCli([]);
    reach.url = cluster.rpcUrl;
    reach.address = String(cluster.ready.feePayer);
    reach.report = join(root, 'report.json');
    writeFileSync(
      reach.report,
      `${JSON.stringify({
        version: '0',
        engine: 'litesvm',
        tests: [],
        totals: { transactions: 0, feeLamports: 0, rentLamports: 0, sponsorLamports: 0, computeUnits: 0 },
      })}\n`,
    );
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
    // The immutable folders first, so that they can be removed.
    try {
      execFileSync('chattr', ['-R', '-i', root], { stdio: 'ignore' });
    } catch {
      // Not made immutable.
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('has a row for every flag that takes a path, and a word for every other', () => {
    const rows = new Set(PATH_FLAGS.map((row) => `${row.command} ${row.flag}`));
    const missing: string[] = [];
    for (const [command, flags] of Object.entries(everyStringFlag())) {
      for (const flag of flags) {
        const covered =
          rows.has(`${command} ${flag}`) ||
          NOT_PATHS[command]?.includes(flag) ||
          ((command === 'exec' || command === 'test-validator') && (rows.has(`start ${flag}`) || NOT_PATHS.start!.includes(flag)));
        if (!covered) missing.push(`${command} ${flag}`);
      }
    }
    expect(missing).toEqual([]);
    // start's own table names its values: each of its path flags is a row.
    expect(startPathFlags().filter((flag) => !rows.has(`start ${flag}`))).toEqual([]);
    // The words stay true: nothing in NOT_PATHS is also a row.
    expect(PATH_FLAGS.filter((row) => NOT_PATHS[row.command]?.includes(row.flag)).map((row) => `${row.command} ${row.flag}`)).toEqual([]);
  });

  describe.each(PATH_FLAGS.map((row) => [`${row.command} ${row.flag} (${row.use})`, row] as [string, PathFlagRow]))('%s', (_, row) => {
    it.concurrent.each(CASES.map((hostile) => [hostile.name, hostile] as [string, Case]))(
      '%s',
      async (__, hostile) => {
        const dir = mkdtempSync(join(root, 'case-'));
        mkdirSync(join(dir, 'home'));
        const { path, untouched } = hostile.make(dir);
        const outcome = await run(row.argv(path, { ...reach, port: await freePort() }), dir);
        expect(outcome.hung, `${row.command} ${row.flag} ${path} neither ended nor served: ${outcome.stderr}`).toBe(false);
        expect(outcome.stderr, 'no stack').not.toMatch(/^\s+at /m);
        untouched();
        if (row.use === 'lenient' || row.accepts?.includes(hostile.name)) return;
        expect(outcome.served, `${row.command} ${row.flag} ${path} was taken: ${outcome.stderr}`).toBe(false);
        expect(outcome.code, outcome.stderr).not.toBe(0);
        const lines = outcome.stderr.trimEnd().split('\n');
        expect(lines, outcome.stderr).toHaveLength(1);
      },
      90_000,
    );
  });
});
