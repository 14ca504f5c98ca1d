/**
 * Issue 42, the judge: Anchor's own CLI (`@coral-xyz/anchor-cli` 0.30.1, its Rust client and all)
 * runs `anchor test --skip-build` and `anchor localnet --skip-build` on a real workspace
 * (test/real-clients/anchor/workspace: anchor-bankrun's puppet pair), in a scratch project that
 * installed the packed tarball beside Anchor's packages, with `npx relay-emulator shims .shims`
 * first on PATH, as the README says. `anchor test` spawns `solana-test-validator --ledger
 * .anchor/test-ledger --mint WALLET --bpf-program …` with Anchor.toml's `[test.validator]` flags,
 * polls `getLatestBlockhash`, spawns `solana logs ID --url URL` per program, runs the mocha suite
 * and SIGKILLs the validator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isProcessAlive } from '../../src/adapters/server/process-alive.ts';
import { freePort } from '../support/emulator-process.ts';
import { readmeBlock } from '../support/readme.ts';
import { run, userEnv, type Ran } from '../support/user-shell.ts';

const JUDGE = fileURLToPath(new URL('../real-clients/anchor/', import.meta.url));
const MINUTE = 60_000;
const PUPPET_DATA = '2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR';

describe('anchor test and anchor localnet, with the shims first on PATH', () => {
  const root = mkdtempSync(join(tmpdir(), 'relay-emulator-anchor-'));
  const project = join(root, 'workspace');
  const home = join(root, 'home');
  let env: NodeJS.ProcessEnv;
  let rpcPort: number;
  let readmeAnchorLine = '';
  const expectSuccess = (ran: Ran) => expect(ran, ran.output).toMatchObject({ code: 0 });

  beforeAll(async () => {
    cpSync(join(JUDGE, 'workspace'), project, { recursive: true });
    // Ports of their own: anchor test refuses an RPC or faucet port in use, and other tests use 8899.
    rpcPort = await freePort();
    const faucetPort = await freePort();
    const toml = readFileSync(join(project, 'Anchor.toml'), 'utf8')
      .replace('rpc_port = 8899', `rpc_port = ${rpcPort}`)
      .replace('faucet_port = 9900', `faucet_port = ${faucetPort}`);
    writeFileSync(join(project, 'Anchor.toml'), toml);
    const { devDependencies } = JSON.parse(readFileSync(join(JUDGE, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const manifest = { name: 'puppet-workspace', private: true, devDependencies: { ...devDependencies, 'relay-emulator': `file:${inject('packedTarball')}` } };
    writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // The developer's Solana CLI keypair: [provider] wallet, and the validator's --mint.
    mkdirSync(join(home, '.config/solana'), { recursive: true });
    writeFileSync(join(home, '.config/solana/id.json'), JSON.stringify([...Keypair.generate().secretKey]));
    env = userEnv({ HOME: home, PATH: `${join(project, '.shims')}:${join(project, 'node_modules/.bin')}:${process.env.PATH}` });
    expectSuccess(await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, env, timeoutMs: 5 * MINUTE }));
    // The README's lines, as written (its light line needs Light's CLI, which downloads its prover and indexer: checked as written).
    const [shimsLine, anchorLine, lightLine] = readmeBlock('A drop-in for solana-test-validator (anchor test, Surfpool, scripts)').code.trim().split('\n') as [
      string,
      string,
      string,
    ];
    expect(shimsLine).toBe('npx relay-emulator shims .shims');
    expect(lightLine).toMatch(/^PATH=\$PWD\/\.shims:\$PATH light test-validator {7}# /);
    readmeAnchorLine = anchorLine;
    expectSuccess(await run('sh', ['-c', shimsLine], { cwd: project, env }));
  }, 6 * MINUTE);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** The emulator anchor test started, by the pid its ready line named: gone, and its ports free. */
  const expectNothingLeft = async () => {
    const log = readFileSync(join(project, '.anchor/test-ledger/test-ledger-log.txt'), 'utf8');
    const pid = Number(/"pid":(\d+)/.exec(log)?.[1]);
    expect(pid).toBeGreaterThan(0);
    // Killed: gone, or a zombie its parent (anchor, gone too) left for an init that reaps late.
    await expect.poll(() => isProcessAlive(pid)).toBe(false);
    for (const port of [rpcPort, rpcPort + 1]) {
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    }
  };

  it(
    'passes the workspace’s suite twice in a row, writes the programs’ logs, and leaves no process or port behind',
    async () => {
      for (const round of [1, 2]) {
        const ran = await run('sh', ['-c', readmeAnchorLine], { cwd: project, env, timeoutMs: 3 * MINUTE });
        expectSuccess(ran);
        expect(ran.output, `round ${round}`).toMatch(/5 passing/);
        await expectNothingLeft();
      }
      // anchor test ran `solana logs ID --url URL` per program: the shim's streams, in the CLI's words.
      const logs = readFileSync(join(project, '.anchor/program-logs/Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS.puppet.log'), 'utf8');
      expect(logs).toMatch(/^Streaming transaction logs mentioning Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS\. Confirmed commitment\n/);
      expect(logs).toMatch(/Transaction executed in slot \d+:\n {2}Signature: \w+\n {2}Status: Ok\n {2}Log Messages:\n {4}Program Fg6Pa\w+ invoke \[1\]/);
      expect(existsSync(join(project, '.anchor/program-logs/HmbTLCmaGvZhKnn1Zfa1JVnp7vkMV4DYVxPLWBVoN65L.puppet_master.log'))).toBe(true);
    },
    8 * MINUTE,
  );

  it(
    'serves anchor localnet until Enter, and anchor account decodes an account through the Rust client',
    async () => {
      const localnet: ChildProcess = spawn('npx', ['anchor', 'localnet', '--skip-build'], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      localnet.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      localnet.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => localnet.once('exit', resolve));
      try {
        await expect
          .poll(
            () =>
              fetch(`http://127.0.0.1:${rpcPort}/health`).then(
                (response) => response.ok,
                () => false,
              ),
            { timeout: MINUTE, interval: 200 },
          )
          .toBe(true);
        // The Rust client: getVersion with "params": null, then getAccountInfo in base64+zstd.
        const account = await run('npx', ['anchor', 'account', 'puppet.Data', PUPPET_DATA, '--provider.cluster', `http://127.0.0.1:${rpcPort}`], {
          cwd: project,
          env,
        });
        expectSuccess(account);
        expect(JSON.parse(account.output.slice(account.output.indexOf('{')))).toEqual({ data: 7 });
        // [test.validator]'s slots_per_epoch reached the validator.
        const epochs = await (
          await fetch(`http://127.0.0.1:${rpcPort}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"jsonrpc":"2.0","id":1,"method":"getEpochSchedule"}',
          })
        ).json();
        expect((epochs as { result: { slotsPerEpoch: number } }).result.slotsPerEpoch).toBe(64);
        localnet.stdin!.write('\n');
        expect(await exited, output).toBe(0);
      } finally {
        localnet.kill('SIGKILL');
      }
      const pid = Number(/"pid":(\d+)/.exec(output)?.[1]);
      expect(pid, output).toBeGreaterThan(0);
      await expect.poll(() => isProcessAlive(pid)).toBe(false);
    },
    4 * MINUTE,
  );
});
