/**
 * The @solana/kora SDK's own integration suite (its package's dist/test/integration.test.js, 0.2.1),
 * unmodified, against the emulator started as a user starts it: the command line with
 * `--kora-config` (Kora's own test fixtures, copied as data from solana-foundation/kora at tag
 * ts-sdk-v0.2.1) and `--kora-signers` (its signers.toml, the key in KORA_PRIVATE_KEY as Kora's test
 * runner passes it). The suite is configured by environment variables only, as Kora's CI runs it
 * (tests/src/test_runner/test_cases.toml): typescript_basic, typescript_auth and typescript_free.
 *
 * The SDK's peers pin @solana/kit 6 (the emulator's own clients are on kit 8), so it is installed
 * from its own lockfile (test/real-clients/kora-sdk/), once per lockfile (test/support/judge-install.ts), and run with jest 29
 * as its package runs it (ESM: node --experimental-vm-modules). The same install serves KoraClient
 * and the kit plugin in this process, through the emulator's MSW handlers (./kora/kora-client-in-process.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from '../support/cli-process.ts';
import { installJudge, shellEnv } from '../support/judge-install.ts';
import { describeKoraClientInProcess } from '../real-clients/kora/kora-client-in-process.ts';

const JUDGE = fileURLToPath(new URL('../real-clients/kora-sdk/', import.meta.url));
const MINUTE = 60_000;

/**
 * What Kora's test runner funds before the suite runs (tests/src/common/setup.rs fund_sol_accounts,
 * 10 SOL each): the sender, the recipient and the fee payer. The suite sends 1,000 lamports to the
 * recipient, which only an account that already holds its rent can take.
 */
const FUNDED = ['HhA5j2rRiPbMrpF2ZD36r69FyZf3zWmEHRNSZbbNdVjf', 'AVmDft8deQEo78bRKcGN5ZMf3hyjeLBK4Rd4xGB46yQM', '7AqpcUvgJ7Kh1VmJZ44rWp2XDow33vswo9VK9VqpPU2d'];

interface Ran {
  code: number | null;
  output: string;
}

function run(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function airdrop(rpcUrl: string, address: string): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [address, 10_000_000_000, { commitment: 'finalized' }] }),
  });
  const body = (await response.json()) as { error?: unknown };
  expect(body.error, `requestAirdrop ${address}`).toBeUndefined();
}

/** Kora's CI groups; `tests`: what the suite runs in each (27, plus 5 authentication tests, or 2 free-price ones). */
const GROUPS: { name: string; config: string; env: Record<string, string>; tests: number }[] = [
  { name: 'typescript_basic', config: 'kora-test.toml', env: {}, tests: 27 },
  { name: 'typescript_auth', config: 'auth-test.toml', env: { ENABLE_AUTH: 'true' }, tests: 32 },
  { name: 'typescript_free', config: 'kora-free-test.toml', env: { FREE_PRICING: 'true' }, tests: 29 },
];

describe('the @solana/kora 0.2.1 SDK’s own integration suite', () => {
  let installed = '';

  beforeAll(async () => {
    installed = await installJudge(JUDGE, { files: ['jest.config.json'] });
  }, 5 * MINUTE);

  it.each(GROUPS)(
    'passes $name ($config), with the emulator as Kora and its ledger as the validator',
    async ({ config, env, tests }) => {
      let emulator: CliProcess | null = null;
      try {
        emulator = await startCli(['--kora-port', '0', '--kora-config', join(JUDGE, config), '--kora-signers', join(JUDGE, 'signers.toml')], {
          env: { KORA_PRIVATE_KEY: join(JUDGE, 'fee-payer-local.json') },
        });
        const { koraUrl, pubsubUrl, rpcUrl } = emulator.ready as Record<string, string>;
        expect(emulator.ready.warnings).toEqual([]);
        for (const address of FUNDED) await airdrop(rpcUrl!, address);
        const suite = await run(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--config', 'jest.config.json', '--ci'], {
          cwd: installed,
          env: shellEnv({ KORA_RPC_URL: koraUrl!, SOLANA_RPC_URL: rpcUrl!, SOLANA_WS_URL: pubsubUrl!, ...env }),
          timeoutMs: 4 * MINUTE,
        });
        expect(suite.code, suite.output).toBe(0);
        const summary = suite.output.match(/^Tests:\s+(.*)$/m)?.[1];
        expect(summary, suite.output).toBe(`${tests} passed, ${tests} total`);
      } finally {
        await emulator?.stop();
      }
    },
    6 * MINUTE,
  );

  describeKoraClientInProcess(() => installed);
});
