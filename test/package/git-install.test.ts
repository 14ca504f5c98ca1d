/**
 * Issue 34, item 2: installs that do not go through the registry. A fresh clone after the quick
 * start's `npm ci` runs its own command (`npx relay-emulator`), and `npm install git+file://CLONE`
 * gives a project a package whose import and command work: both need dist/, which the `prepare`
 * script builds (npm runs it after `npm ci` in a clone and when it installs from git).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ran, run } from '../support/user-shell.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const MINUTE = 60_000;
const expectSuccess = (ran: Ran) => expect(ran, ran.output).toMatchObject({ code: 0 });
/** A script that imports the package by its name, makes an emulator, relays nothing, and closes it. */
const IMPORT_CHECK =
  "import { createRelayEmulator } from 'relay-emulator'; const e = await createRelayEmulator(); " +
  "if (!e.config.rpcUrl.startsWith('http://127.0.0.1:')) process.exit(1); await e.close(); console.log('imported');";

describe('installs from a clone and from git', () => {
  const root = mkdtempSync(join(tmpdir(), 'relay-emulator-git-'));
  const clone = join(root, 'relay-emulator');
  const project = join(root, 'your-app');
  let cloned: Ran;

  beforeAll(async () => {
    // The repository as a clone has it: HEAD, without this checkout's node_modules or dist/.
    expectSuccess(await run('git', ['clone', '-q', REPO, clone], { cwd: root }));
    cloned = await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: clone, timeoutMs: 6 * MINUTE });
  }, 8 * MINUTE);
  // Two node_modules trees: removed without blocking the worker, given the time a loaded machine takes.
  afterAll(() => rm(root, { recursive: true, force: true, maxRetries: 3 }), 5 * MINUTE);

  it(
    'runs `npx relay-emulator` in a fresh clone after the quick start’s npm ci, which built dist/',
    async () => {
      expectSuccess(cloned);
      const ran = await run('npx', ['relay-emulator', '--version'], { cwd: clone });
      expectSuccess(ran);
      expect(ran.output.trim()).toMatch(/^\d+\.\d+\.\d+/);
      expect(ran.output).not.toContain('dist/ is missing');
      expectSuccess(await run(process.execPath, ['--input-type=module', '-e', IMPORT_CHECK], { cwd: clone }));
      // npx resolves the clone's bin and the import loads the engines: slow on a machine the rest of the suite loads.
    },
    3 * MINUTE,
  );

  it(
    'installs with `npm install git+file://…`: the import and the command work in the project',
    async () => {
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), '{"name":"your-app","private":true,"type":"module"}\n');
      const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${clone}`], {
        cwd: project,
        timeoutMs: 6 * MINUTE,
      });
      expectSuccess(installed);
      const imported = await run(process.execPath, ['--input-type=module', '-e', IMPORT_CHECK], { cwd: project });
      expectSuccess(imported);
      expect(imported.output).toContain('imported');
      const command = await run('npx', ['relay-emulator', '--version'], { cwd: project });
      expectSuccess(command);
      expect(command.output.trim()).toMatch(/^\d+\.\d+\.\d+/);
    },
    8 * MINUTE,
  );
});
