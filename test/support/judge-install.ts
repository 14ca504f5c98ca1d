import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Installs a judge project (a folder of test/real-clients/ with its own package.json and
 * package-lock.json: real clients and the packages that ship real programs, kept apart from the
 * emulator's own dependencies) with `npm ci`, once per lockfile: the install is kept in the system's
 * temp folder under the lockfile's hash, so the second engine's run, and every later run on this
 * machine, finds it. Installs run side by side (two vitest workers) end in one rename; the loser's
 * copy is removed. Resolves with the installed folder; rejects with npm's output when npm fails.
 */
export async function installJudge(project: string, options: { files?: string[] } = {}): Promise<string> {
  // Beside the manifest and the lockfile, `files` the install's users read from its folder (a jest config).
  const files = ['package.json', 'package-lock.json', ...(options.files ?? [])];
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(readFileSync(join(project, file)));
  const digest = hash.digest('hex').slice(0, 16);
  const root = join(tmpdir(), 'relay-emulator-judges');
  const target = join(root, `${basename(project)}-${digest}`);
  if (existsSync(join(target, '.installed'))) return target;
  mkdirSync(root, { recursive: true });
  const scratch = `${target}.${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  for (const file of files) copyFileSync(join(project, file), join(scratch, file));
  const output = await npmCi(scratch);
  writeFileSync(join(scratch, '.installed'), output);
  try {
    renameSync(scratch, target);
  } catch {
    // Another worker installed the same lockfile first: use its copy.
    rmSync(scratch, { recursive: true, force: true });
  }
  return target;
}

function npmCi(cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Install scripts are off: the judges' packages need none to be read or run here.
    const child = spawn('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: shellEnv() });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 5 * 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`npm ci in ${cwd} exited with ${code}:\n${output}`));
    });
  });
}

/** The environment of a user's shell: none of this run's vitest or npm variables, and `extra`. */
export function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^(VITEST|__VITEST|npm_|NODE_OPTIONS$|TINYPOOL)/i.test(name)) env[name] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}
