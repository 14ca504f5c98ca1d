/**
 * `anchor test` through the shims (issue 42), run alone: `npx tsx bench/anchor-test.ts [rounds]`.
 * It needs the Anchor judge (test/real-clients/anchor: anchor-cli 0.30.1, installed from npm the
 * first time) and is not part of `npm run bench`. Paired rounds of:
 * - the whole `anchor test --skip-build` on the puppet workspace, the shims first on PATH;
 * - the JS-side work only: the same mocha suite, with ANCHOR_PROVIDER_URL and ANCHOR_WALLET, against
 *   a test-validator already serving (what the run costs without starting and stopping one);
 * - the validator's part: `relay-emulator test-validator` from spawn to its first getLatestBlockhash.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { installJudge } from '../test/support/judge-install.ts';
import { median } from './stats.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const JUDGE = join(REPO, 'test/real-clients/anchor');
const BIN = join(REPO, 'bin/relay-emulator.mjs');

const rounds = Number(process.argv[2] ?? 5);
const installed = await installJudge(JUDGE);
const root = mkdtempSync(join(tmpdir(), 'relay-emulator-anchor-bench-'));
const project = join(root, 'workspace');
cpSync(join(JUDGE, 'workspace'), project, { recursive: true });
symlinkSync(join(installed, 'node_modules'), join(project, 'node_modules'), 'dir');
const port = 18_000 + Math.floor(Math.random() * 1_000) * 2;
writeFileSync(
  join(project, 'Anchor.toml'),
  readFileSync(join(project, 'Anchor.toml'), 'utf8')
    .replace('rpc_port = 8899', `rpc_port = ${port}`)
    .replace('faucet_port = 9900', `faucet_port = ${port + 500}`),
);
const home = join(root, 'home');
mkdirSync(join(home, '.config/solana'), { recursive: true });
writeFileSync(join(home, '.config/solana/id.json'), JSON.stringify([...Keypair.generate().secretKey]));
spawnSync(process.execPath, [BIN, 'shims', '.shims'], { cwd: project });
const env = { ...process.env, HOME: home, RUST_LOG: 'error', PATH: `${join(project, '.shims')}:${join(installed, 'node_modules/.bin')}:${process.env.PATH}` };

const timed = (command: string, args: string[], extra: Record<string, string> = {}): number => {
  const started = performance.now();
  const ran = spawnSync(command, args, { cwd: project, env: { ...env, ...extra }, encoding: 'utf8' });
  if (ran.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${ran.stdout}${ran.stderr}`);
  return performance.now() - started;
};

const whole: number[] = [];
const suite: number[] = [];
const start: number[] = [];
try {
  for (let round = 0; round < rounds; round += 1) {
    whole.push(timed('anchor', ['test', '--skip-build']));
    const ledger = join(root, `ledger-${round}`);
    const began = performance.now();
    // The flags anchor test passes (lib.rs validator_flags): the wallet as --mint, the programs, the account, [test.validator].
    const wallet = Keypair.fromSecretKey(Uint8Array.from(JSON.parse(readFileSync(join(home, '.config/solana/id.json'), 'utf8')) as number[]));
    const flags = ['--ledger', ledger, '--mint', wallet.publicKey.toBase58(), '--rpc-port', String(port), '--quiet', '--slots-per-epoch', '64'];
    flags.push('--bpf-program', 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS', join(project, 'target/deploy/puppet.so'));
    flags.push('--bpf-program', 'HmbTLCmaGvZhKnn1Zfa1JVnp7vkMV4DYVxPLWBVoN65L', join(project, 'target/deploy/puppet_master.so'));
    flags.push('--account', '2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR', join(project, 'accounts/puppet-data.json'));
    const validator = spawn(process.execPath, [BIN, 'test-validator', ...flags], { cwd: project, env, stdio: 'ignore' });
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"getLatestBlockhash"}',
      }).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    start.push(performance.now() - began);
    try {
      suite.push(
        timed('npx', ['mocha', '-t', '1000000', 'tests/'], {
          ANCHOR_PROVIDER_URL: `http://127.0.0.1:${port}`,
          ANCHOR_WALLET: join(home, '.config/solana/id.json'),
        }),
      );
    } finally {
      validator.kill('SIGKILL');
      await new Promise((resolve) => validator.once('exit', resolve));
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
const ms = (values: number[]) => `${median(values).toFixed(0)} ms (${values.map((value) => value.toFixed(0)).join(', ')})`;
console.log(`anchor test --skip-build, whole:             ${ms(whole)}`);
console.log(`the same suite against a running validator:  ${ms(suite)}`);
console.log(`test-validator, spawn to getLatestBlockhash: ${ms(start)}`);
console.log(`the rest (anchor's own start-up, its port checks, solana logs, SIGKILL): ${(median(whole) - median(suite) - median(start)).toFixed(0)} ms`);
