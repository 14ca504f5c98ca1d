/**
 * Issue 42: `relay-emulator test-validator` as tools start solana-test-validator, and the shims
 * (`solana`, `surfpool`) as they run them. Spawned as the tests spawn the CLI (test/support/cli-process.ts),
 * on ports of their own; the Anchor CLI's own run is test/package/anchor-cli.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ARGS } from '../support/cli-process.ts';
import { freePort } from '../support/emulator-process.ts';
import { runCli, serveCli } from '../support/validator-process.ts';

const MINUTE = 60_000;
const root = mkdtempSync(join(tmpdir(), 'relay-emulator-test-validator-'));
const home = join(root, 'home');
const wallet = Keypair.generate();
mkdirSync(join(home, '.config/solana'), { recursive: true });
writeFileSync(join(home, '.config/solana/id.json'), JSON.stringify([...wallet.secretKey]));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `relay-emulator COMMAND …args` in `root`, with HOME holding the CLI keypair; killed after `ms`. */
const cli = (args: string[], ms = MINUTE) => runCli(args, { cwd: root, env: { HOME: home }, ms });

/** A test-validator (or surfpool) child on `port`, ready once its RPC answers; stopped by its own PID. */
const serve = (args: string[], port: number) => serveCli(args, port, { cwd: root, env: { HOME: home } });

describe('relay-emulator test-validator', () => {
  it(
    'keeps the ledger across a SIGKILL, and --reset starts afresh',
    async () => {
      const port = await freePort();
      const ledger = join(root, 'ledger-a');
      const address = Keypair.generate().publicKey.toBase58();
      const first = await serve(['test-validator', '--ledger', ledger, '--rpc-port', String(port), '--quiet'], port);
      // The validator's genesis: the CLI keypair holds 500,000,000 SOL.
      expect((await first.rpc('getBalance', [wallet.publicKey.toBase58()])).value).toBe(500_000_000 * 1e9);
      const signature = await first.rpc('requestAirdrop', [address, 2_000_000_000]);
      // A validator's timing: it lands in a later slot and is confirmed a slot after that.
      await expect
        .poll(async () => (await first.rpc('getSignatureStatuses', [[signature]])).value[0]?.confirmationStatus, { timeout: 10_000 })
        .toBe('confirmed');
      expect(await first.stop('SIGKILL')).toBe('SIGKILL');
      expect(first.output()).toBe('');

      const second = await serve(['test-validator', '--ledger', ledger, '--rpc-port', String(port), '--quiet'], port);
      expect((await second.rpc('getBalance', [address])).value).toBe(2_000_000_000);
      expect((await second.rpc('getTransaction', [signature])).slot).toBeGreaterThan(0);
      // A restart roots the slot it resumes at, as a validator's does: what landed before is finalized.
      expect((await second.rpc('getSignatureStatuses', [[signature]])).value[0].confirmationStatus).toBe('finalized');
      await second.stop('SIGTERM');
      expect(readFileSync(join(ledger, 'validator.log'), 'utf8')).toMatch(/POST \/ 200/);

      const third = await serve(['test-validator', '--ledger', ledger, '--rpc-port', String(port), '--reset', '--quiet'], port);
      expect((await third.rpc('getBalance', [address])).value).toBe(0);
      await third.stop('SIGTERM');
    },
    3 * MINUTE,
  );

  it(
    'prints the validator’s start-up lines, notes the flags that mean nothing here, and serves the others',
    async () => {
      const port = await freePort();
      const ran = await serve(
        [
          'test-validator',
          '--ledger',
          join(root, 'ledger-b'),
          '--rpc-port',
          String(port),
          '--gossip-port',
          '8001',
          '--ticks-per-slot',
          '8',
          '--slots-per-epoch',
          '32',
          '--warp-slot',
          '500',
        ],
        port,
      );
      await expect.poll(ran.output).toMatch(/relay-emulator ready /);
      const output = ran.output();
      expect(output).toMatch(/^Ledger location: ledger-b\nLog: ledger-b\/validator\.log\nIdentity: \w+\nGenesis Hash: \w+\nVersion: [\d.]+\n/m);
      expect(output).toContain(`JSON RPC URL: http://127.0.0.1:${port}\nWebSocket PubSub URL: ws://127.0.0.1:${port + 1}\n`);
      expect(output).toContain(`Mint: ${wallet.publicKey.toBase58()} (500000000 SOL; from ${join(home, '.config/solana/id.json')})`);
      expect(output).toContain(
        'relay-emulator test-validator: --gossip-port, --ticks-per-slot accepted, meaning nothing here (docs/test-validator.md says why)\n',
      );
      const epoch = await ran.rpc('getEpochInfo');
      expect(epoch).toMatchObject({ slotsInEpoch: 32, epoch: Math.floor(epoch.absoluteSlot / 32) });
      expect(epoch.absoluteSlot).toBeGreaterThanOrEqual(500);
      // The relay is on the same port, behind its API key as ever.
      expect((await fetch(`http://127.0.0.1:${port}/api/Transaction/config`)).status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/api/Transaction/config`, { headers: { 'X-API-Key': 'relay-emulator-dev-key' } })).status).toBe(200);
      await ran.stop('SIGTERM');
    },
    2 * MINUTE,
  );

  it(
    'refuses a flag it cannot honour, and one it does not know, in one line, starting nothing',
    async () => {
      const cases: [string[], number, RegExp][] = [
        [
          ['--geyser-plugin-config', 'plugin.json'],
          2,
          /^relay-emulator test-validator: --geyser-plugin-config cannot be honoured here: a Geyser plugin is a native library of Agave’s; none can load here/,
        ],
        [['--clone-feature-set'], 2, /^relay-emulator test-validator: --clone-feature-set cannot be honoured here: /],
        [['--no-such-flag'], 2, /^relay-emulator test-validator: --no-such-flag is not a flag of solana-test-validator/],
        [['--rpc-port'], 2, /^relay-emulator test-validator: --rpc-port takes PORT; PORT is missing/],
        [
          ['--clone', 'So11111111111111111111111111111111111111112'],
          2,
          /^relay-emulator test-validator: the --clone flags need --url, the cluster to fetch from/,
        ],
        [['--port', '1'], 2, /^relay-emulator test-validator: --port is relay-emulator start's; here the validator's flags say it/],
        [['--slots-per-epoch', '8', '--rpc-port', '0'], 1, /^relay-emulator: cannot start: --slots-per-epoch must be a whole number of at least 32, not 8$/],
      ];
      for (const [args, code, message] of cases) {
        const ran = await cli(['test-validator', '--ledger', join(root, 'ledger-refused'), ...args]);
        expect(ran.code, ran.stderr).toBe(code);
        const lines = ran.stderr
          .trimEnd()
          .split('\n')
          .filter((line) => !line.startsWith('Notice!'));
        expect(lines, ran.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(message);
        expect(ran.stdout).not.toMatch(/relay-emulator ready/);
      }
    },
    3 * MINUTE,
  );

  it('answers --version and --help as solana-test-validator does', async () => {
    expect((await cli(['test-validator', '--version'])).stdout).toMatch(
      /^solana-test-validator \d+\.\d+\.\d+ \(src:relay-emulator [\d.]+; feat:\d+, client:relay-emulator\)\n$/,
    );
    const help = (await cli(['test-validator', '--help'])).stdout;
    expect(help).toMatch(/-l, --ledger DIR\n/);
    expect(help).toMatch(/--geyser-plugin-config FILE\n\s+\(refused\)/);
  });
});

describe('the shims', () => {
  it('writes the three names, each running this relay-emulator, and refuses to overwrite a program it did not write', async () => {
    const shims = join(root, 'shims');
    const ran = await cli(['shims', shims]);
    expect(ran.code, ran.stderr).toBe(0);
    for (const name of ['solana-test-validator', 'solana', 'surfpool']) {
      expect(readFileSync(join(shims, name), 'utf8')).toMatch(/^#!\/bin\/sh\n# relay-emulator shim: .*\nexec '.*' "\$@"\n$/);
    }
    // Again: its own shims are rewritten.
    expect((await cli(['shims', shims])).code).toBe(0);
    const theirs = join(root, 'theirs');
    mkdirSync(theirs);
    writeFileSync(join(theirs, 'solana'), '#!/bin/sh\necho real solana\n');
    const refused = await cli(['shims', theirs]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^relay-emulator shims: .*theirs\/solana: it is a file of \d+ bytes that is not a shim relay-emulator wrote; nothing was written, and it was left as/,
    );
    expect(readFileSync(join(theirs, 'solana'), 'utf8')).toBe('#!/bin/sh\necho real solana\n');
    // All three names are judged before any is written: solana-test-validator, first of the three, was not written either.
    expect(readdirSync(theirs)).toEqual(['solana']);
  });

  it(
    'serves solana balance, airdrop, account and logs in the Solana CLI’s words, and hands on what it does not serve',
    async () => {
      const port = await freePort();
      const validator = await serve(['test-validator', '--ledger', join(root, 'ledger-c'), '--rpc-port', String(port), '--quiet'], port);
      const url = `http://127.0.0.1:${port}`;
      const address = Keypair.generate().publicKey.toBase58();
      const logs = spawn(process.execPath, [...CLI_ARGS, 'solana', 'logs', '--url', url], {
        env: { ...process.env, HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let streamed = '';
      logs.stdout.on('data', (chunk: Buffer) => (streamed += chunk.toString()));
      try {
        // The shim's own start (a node process) and its WebSocket handshake: slow on a loaded machine.
        await expect.poll(() => streamed, { timeout: 20_000 }).toBe('Streaming transaction logs. Confirmed commitment\n');
        const airdrop = await cli(['solana', 'airdrop', '1.5', address, '-u', url]);
        expect(airdrop.stdout).toMatch(/^Requesting airdrop of 1\.5 SOL\n\nSignature: (\w+)\n\n1\.5 SOL\n$/);
        const signature = /Signature: (\w+)/.exec(airdrop.stdout)![1]!;
        expect((await cli(['solana', 'balance', address, '--url', url])).stdout).toBe('1.5 SOL\n');
        expect((await cli(['solana', '-u', url, 'balance', address, '--lamports'])).stdout).toBe('1500000000 lamports\n');
        // The CLI's keypair, when no address is given.
        expect((await cli(['solana', 'balance', '-u', url])).stdout).toBe('500000000 SOL\n');
        expect((await cli(['solana', 'address'])).stdout).toBe(`${wallet.publicKey.toBase58()}\n`);
        const account = await cli(['solana', 'account', 'SysvarRent111111111111111111111111111111111', '-u', url]);
        expect(account.stdout).toMatch(/^\nPublic Key: SysvarRent1{33}\nBalance: [\d.]+ SOL\nOwner: Sysvar1+\nExecutable: false\nRent Epoch: \d+\n/);
        expect(account.stdout).toMatch(/\nLength: 17 \(0x11\) bytes\n0000: {3}[0-9a-f ]+ {3}\S+\n0010: {3}[0-9a-f]{2} .*\n\n$/);
        const json = await cli(['solana', 'account', address, '-u', url, '--output', 'json-compact']);
        expect(JSON.parse(json.stdout)).toMatchObject({ pubkey: address, account: { lamports: 1_500_000_000, data: ['', 'base64'], space: 0 } });
        const missing = await cli(['solana', 'account', Keypair.generate().publicKey.toBase58(), '-u', url]);
        expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Error: AccountNotFound: pubkey=\w+\n$/) });
        await expect
          .poll(() => streamed)
          .toMatch(
            new RegExp(
              `Transaction executed in slot \\d+:\\n {2}Signature: ${signature}\\n {2}Status: Ok\\n {2}Log Messages:\\n {4}Program 1{32} invoke \\[1\\]\\n`,
            ),
          );
        // Not served: handed to the next `solana` on PATH that is no shim (its output and exit code), else one line.
        const shims = join(root, 'handoff-shims');
        const real = join(root, 'handoff-real');
        mkdirSync(real, { recursive: true });
        expect((await cli(['shims', shims])).code).toBe(0);
        for (const name of ['solana', 'surfpool']) writeFileSync(join(real, name), `#!/bin/sh\necho "real ${name} $*"\nexit 3\n`, { mode: 0o755 });
        const onlyShims = { HOME: home, PATH: shims };
        const other = await runCli(['solana', 'program', 'show', address], { cwd: root, env: onlyShims });
        expect(other.code).toBe(1);
        expect(other.stderr).toMatch(
          /^relay-emulator's solana serves logs, balance, airdrop, account, address and --version against the emulator; `solana program` needs the Solana CLI/,
        );
        const handed = await runCli(['solana', 'program', 'show', address], { cwd: root, env: { HOME: home, PATH: `${shims}:${real}` } });
        expect(handed).toMatchObject({ code: 3, stdout: `real solana program show ${address}\n` });
        const surfpool = await runCli(['surfpool', 'run', 'deployment'], { cwd: root, env: { HOME: home, PATH: `${shims}:${real}` } });
        expect(surfpool).toMatchObject({ code: 3, stdout: 'real surfpool run deployment\n' });
        expect((await runCli(['surfpool', 'run', 'deployment'], { cwd: root, env: onlyShims })).stderr).toMatch(/no other surfpool is on PATH\n$/);
      } finally {
        logs.kill('SIGKILL');
        await validator.stop('SIGTERM');
      }
    },
    3 * MINUTE,
  );

  it(
    'serves surfpool start with the flags Anchor 1.x passes, and refuses one it cannot honour',
    async () => {
      const port = await freePort();
      const airdrop = Keypair.generate().publicKey.toBase58();
      const args = [
        'surfpool',
        'start',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--offline',
        '--block-production-mode',
        'transaction',
        '--log-level',
        'none',
      ];
      const surfnet = await serve(
        [
          ...args,
          '--ws-port',
          String(port + 1),
          '--no-tui',
          '--disable-instruction-profiling',
          '--max-profiles',
          '1',
          '--no-studio',
          '--no-deploy',
          '--airdrop',
          airdrop,
        ],
        port,
      );
      expect((await surfnet.rpc('getBalance', [airdrop])).value).toBe(10_000 * 1e9);
      // --log-level none: nothing on stdout.
      expect(surfnet.output()).not.toMatch(/relay-emulator ready/);
      expect(await surfnet.stop('SIGKILL')).toBe('SIGKILL');
      // Gone with its ports: nothing answers where it served.
      for (const free of [port, port + 1]) await expect(fetch(`http://127.0.0.1:${free}/health`)).rejects.toThrow();
      const refused = await cli(['surfpool', 'start', '--db', 'postgres://x']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^Error: Unknown option '--db'; it cannot be honoured here/);
      expect((await cli(['surfpool', '--version'])).stdout).toMatch(/^surfpool \d+\.\d+\.\d+ \(relay-emulator [\d.]+\)\n$/);
    },
    2 * MINUTE,
  );
});
