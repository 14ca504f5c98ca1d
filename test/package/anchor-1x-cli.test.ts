/**
 * Issue 52, the judge: Anchor 1.x's own CLI (npm `@anchor-lang/cli` 1.0.1, made runnable here by
 * test/support/anchor-1x.ts) runs `anchor test --skip-build`, `anchor localnet --skip-build` and
 * `anchor account` on a workspace as `anchor init` 1.x writes one (test/real-clients/anchor-1x:
 * @anchor-lang/core, ts-mocha, anchor-bankrun's puppet pair), in a scratch project that installed the
 * packed tarball beside the workspace's packages, with `npx relay-emulator shims .shims` first on
 * PATH. Anchor 1.x spawns `surfpool start …` (its stdout and stderr discarded), polls
 * getLatestBlockhash and then surfnet_getSurfnetInfo until every runbook completed, runs the
 * suite, and SIGKILLs it. Each `[surfpool]` setting runs twice in a row; the emulator's pid is read
 * from the log the stand-in writes to .surfpool/logs, where Anchor sends its users.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isProcessAlive } from '../../src/adapters/server/process-alive.ts';
import { anchorOneX } from '../support/anchor-1x.ts';
import { withDefaultPorts } from '../support/default-ports-lock.ts';
import { freePort } from '../support/emulator-process.ts';
import { run, userEnv, type Ran } from '../support/user-shell.ts';

const JUDGE = fileURLToPath(new URL('../real-clients/anchor-1x/', import.meta.url));
const MINUTE = 60_000;
const PUPPET_DATA = '2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR';

// Prepared once per version (cached under node_modules/.cache); skipped only where npm or Debian's mirror
// cannot be reached and the run says it is offline.
const prepared = await anchorOneX();
const offline = 'skip' in prepared && process.env.RELAY_EMULATOR_OFFLINE === '1';

describe.skipIf(offline)('Anchor 1.x’s anchor test, localnet and account, with the shims first on PATH', () => {
  const root = mkdtempSync(join(tmpdir(), 'relay-emulator-anchor-1x-'));
  const project = join(root, 'workspace');
  const home = join(root, 'home');
  const toml = () => readFileSync(join(JUDGE, 'workspace/Anchor.toml'), 'utf8');
  let env: NodeJS.ProcessEnv;
  const expectSuccess = (ran: Ran) => expect(ran, ran.output).toMatchObject({ code: 0 });

  beforeAll(async () => {
    const anchor = prepared;
    if ('skip' in anchor) throw new Error(`Anchor 1.x's CLI could not be prepared: ${anchor.skip} (RELAY_EMULATOR_OFFLINE=1 skips this file)`);
    expect(anchor.version).toBe('anchor-cli 1.0.1');
    cpSync(join(JUDGE, 'workspace'), project, { recursive: true });
    // The programs anchor build would write: the 0.30 fixture's builds of the same pair (one copy of them in the repository).
    mkdirSync(join(project, 'target/deploy'), { recursive: true });
    for (const name of ['puppet.so', 'puppet_master.so']) cpSync(join(JUDGE, '../anchor/workspace/target/deploy', name), join(project, 'target/deploy', name));
    const { devDependencies } = JSON.parse(readFileSync(join(JUDGE, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const manifest = { name: 'puppet-1x', private: true, devDependencies: { ...devDependencies, 'relay-emulator': `file:${inject('packedTarball')}` } };
    writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(join(home, '.config/solana'), { recursive: true });
    writeFileSync(join(home, '.config/solana/id.json'), JSON.stringify([...Keypair.generate().secretKey]));
    const anchorDir = join(anchor.bin, '..');
    env = userEnv({ HOME: home, PATH: `${join(project, '.shims')}:${anchorDir}:${join(project, 'node_modules/.bin')}:${process.env.PATH}` });
    expectSuccess(await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, env, timeoutMs: 5 * MINUTE }));
    expectSuccess(await run('npx', ['relay-emulator', 'shims', '.shims'], { cwd: project, env }));
  }, 8 * MINUTE);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** Anchor.toml with the `[surfpool]` table given (none: the table removed) and [test.validator] on `validatorPort`. */
  const configure = (surfpool: string | null, validatorPort: number) => {
    let text = toml().replace(/\[surfpool\]\nrpc_port = 8899\n/, surfpool === null ? '' : `[surfpool]\n${surfpool}\n`);
    text = text.replace(
      '[test.validator]\nbind_address = "127.0.0.1"\nrpc_port = 8899',
      `[test.validator]\nbind_address = "127.0.0.1"\nrpc_port = ${validatorPort}`,
    );
    writeFileSync(join(project, 'Anchor.toml'), text);
    rmSync(join(project, '.surfpool'), { recursive: true, force: true });
  };

  /** The emulator each run started, by the pid its log names: gone, and its ports free. */
  const expectNothingLeft = async (ports: number[]) => {
    const logs = readdirSync(join(project, '.surfpool/logs')).map((name) => readFileSync(join(project, '.surfpool/logs', name), 'utf8'));
    const pids = logs.flatMap((log) => [...log.matchAll(/ready \(pid (\d+)\)/g)].map((match) => Number(match[1])));
    expect(pids.length, logs.join('\n')).toBeGreaterThan(0);
    for (const pid of pids) await expect.poll(() => isProcessAlive(pid)).toBe(false);
    for (const port of ports) await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    return logs.join('\n');
  };

  const anchorTest = async (round: string) => {
    const ran = await run('anchor', ['test', '--skip-build'], { cwd: project, env, timeoutMs: 4 * MINUTE });
    expectSuccess(ran);
    expect(ran.output, round).toMatch(/5 passing/);
  };

  it(
    'passes twice with no [surfpool] table (127.0.0.1:8899, PubSub on 8900), and leaves nothing behind',
    () =>
      withDefaultPorts(async () => {
        for (const round of ['first', 'second']) {
          configure(null, 8899);
          await anchorTest(round);
          await expectNothingLeft([8899, 8900]);
        }
      }),
    10 * MINUTE,
  );

  it(
    'passes twice with a [surfpool] table on other ports (ws_port not rpc_port + 1), with airdrops, and on host 0.0.0.0',
    async () => {
      const airdrop = Keypair.generate().publicKey.toBase58();
      for (const host of ['127.0.0.1', '0.0.0.0']) {
        for (const round of ['first', 'second']) {
          const [rpcPort, wsPort] = [await freePort(), await freePort()];
          configure(`host = "${host}"\nrpc_port = ${rpcPort}\nws_port = ${wsPort}\nairdrop_addresses = ["${airdrop}"]`, rpcPort);
          await anchorTest(`${host}, ${round}`);
          expect(await expectNothingLeft([rpcPort, wsPort])).toContain(`--airdrop ${airdrop} --host ${host} --port ${rpcPort} --ws-port ${wsPort}`);
        }
      }
    },
    12 * MINUTE,
  );

  it(
    'passes with manifest_file_path and runbooks it cannot run, the reason written to .surfpool/logs',
    async () => {
      const rpcPort = await freePort();
      for (const round of ['first', 'second']) {
        configure(`rpc_port = ${rpcPort}\nws_port = ${rpcPort + 1}\nmanifest_file_path = "./Surfpool.toml"\nrunbooks = ["deployment"]`, rpcPort);
        await anchorTest(round);
        const log = await expectNothingLeft([rpcPort]);
        expect(log).toMatch(
          /WARN surfpool\] relay-emulator cannot run txtx runbooks \(deployment\): deployed .*Anchor\.toml's programs and test accounts instead/,
        );
      }
    },
    8 * MINUTE,
  );

  it(
    'serves anchor localnet until Enter, and anchor account decodes an account through the Rust client (both on 8899, as Anchor 1.x fixes them)',
    () =>
      withDefaultPorts(async () => {
        configure(null, 8899);
        const localnet: ChildProcess = spawn('anchor', ['localnet', '--skip-build'], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
        let output = '';
        localnet.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        localnet.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => localnet.once('exit', resolve));
        try {
          await expect
            .poll(
              () =>
                fetch('http://127.0.0.1:8899/health').then(
                  (response) => response.ok,
                  () => false,
                ),
              { timeout: MINUTE, interval: 200 },
            )
            .toBe(true);
          const account = await run('anchor', ['account', 'puppet.Data', PUPPET_DATA], { cwd: project, env });
          expectSuccess(account);
          expect(JSON.parse(account.output.slice(account.output.indexOf('{')))).toEqual({ data: 7 });
          localnet.stdin!.write('\n');
          expect(await exited, output).toBe(0);
        } finally {
          localnet.kill('SIGKILL');
        }
        await expectNothingLeft([8899, 8900]);
      }),
    6 * MINUTE,
  );
});
