/**
 * Issue 52, item 1: `surfpool start` as Anchor 1.0 and 1.1 run it (otter-sec/anchor v1.0.1 and
 * v1.1.2 cli/src/lib.rs, `surfpool_flags`, `start_surfpool_validator`), replayed argv for argv in the
 * workspace's folder: Anchor 1.1's `--snapshot` first, a `[surfpool]` table on any host and ports,
 * runbooks, Test.toml suites, Surfpool's own environment; then polled as Anchor polls it
 * (getLatestBlockhash, then surfnet_getSurfnetInfo with `"params": null` and no token until every
 * runbook completed) and SIGKILLed as Anchor kills it. Anchor 1.0.1's own binary runs it in
 * test/package/anchor-1x-cli.test.ts.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, symlinkSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair, PublicKey } from '@solana/web3.js';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/adapters/server/process-alive.ts';
import { clonedDumps } from '../../src/domain/fixtures/clone-cache.ts';
import { freePort } from '../support/emulator-process.ts';
import { CLI_ARGS } from '../support/cli-process.ts';
import { runCli, serveCli } from '../support/validator-process.ts';

const MINUTE = 60_000;

/** `sh -c SCRIPT` in `cwd`: its stdout. */
function runShell(script: string, cwd: string, shell = 'sh'): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(shell, ['-c', script], { cwd, env: { ...process.env, HOME: join(root, 'home') }, timeout: MINUTE }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}
const WORKSPACE = fileURLToPath(new URL('../real-clients/anchor/workspace/', import.meta.url));
const PUPPET = 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS';
const PUPPET_DATA = '2Xi1VhRZ6YfkVEo14oEtJ1VirAf2jwSfMDFLmZjCp2iR';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const root = mkdtempSync(join(tmpdir(), 'relay-emulator-surfpool-'));
const home = join(root, 'home');
mkdirSync(join(home, '.config/solana'), { recursive: true });
writeFileSync(join(home, '.config/solana/id.json'), JSON.stringify([...Keypair.generate().secretKey]));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh copy of the puppet workspace, as `anchor init` and `anchor build` leave one. */
function workspace(name: string): string {
  const dir = join(root, name);
  cpSync(WORKSPACE, dir, { recursive: true });
  return dir;
}

/** A JSON-RPC call as Anchor's RpcClient sends it: no headers but the content type, params as given (null included). */
async function raw(port: number, method: string, params: unknown): Promise<{ text: string; json: any }> {
  const response = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  return { text, json: JSON.parse(text) };
}

/** Anchor's wait after the first blockhash: surfnet_getSurfnetInfo every 500 ms until every runbook has completedAt. */
async function anchorPoll(port: number) {
  const info = await raw(port, 'surfnet_getSurfnetInfo', null);
  expect(info.json.error).toBeUndefined();
  expect(info.json.result.value.runbookExecutions.every((run: { completedAt: number | null }) => run.completedAt !== null)).toBe(true);
  return info.json.result.value.runbookExecutions as { startedAt: number; completedAt: number; runbookId: string; errors: string[] | null }[];
}

/** The one log file the stand-in wrote under `dir`/.surfpool/logs, as Surfpool names it. */
function surfpoolLog(dir: string): string {
  const names = readdirSync(join(dir, '.surfpool/logs'));
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/^simnet_\d{4}-\d\d-\d\d--\d\d-\d\d-\d\d\.log$/);
  return readFileSync(join(dir, '.surfpool/logs', names[0]!), 'utf8');
}

/** Anchor 1.1's surfpool.snapshot.json, as `write_surfpool_snapshot` writes it (to_writer_pretty, rent epochs u64::MAX). */
function anchorSnapshot(dir: string, accounts: Record<string, { lamports: number; owner: string; data: Buffer }>): string {
  const folder = join(dir, '.anchor/generated_accounts');
  mkdirSync(folder, { recursive: true });
  const body = Object.entries(accounts).map(
    ([address, account]) =>
      `  "${address}": {\n    "lamports": ${account.lamports},\n    "owner": "${account.owner}",\n    "executable": false,\n` +
      `    "rentEpoch": 18446744073709551615,\n    "data": "${account.data.toString('base64')}",\n    "parsedData": null\n  }`,
  );
  const path = join(folder, 'surfpool.snapshot.json');
  writeFileSync(path, `{\n${body.join(',\n')}\n}`);
  return path;
}

const TEST_MODE = [
  '--offline',
  '--block-production-mode',
  'transaction',
  '--log-level',
  'none',
  '--no-tui',
  '--disable-instruction-profiling',
  '--max-profiles',
  '1',
  '--no-studio',
];

describe('surfpool start, as Anchor 1.x runs it', () => {
  it(
    'Anchor 1.1.2’s argv: --snapshot first, [surfpool] on 0.0.0.0 with a ws_port of its own; generated accounts as written, nothing left after SIGKILL',
    async () => {
      const dir = workspace('ws-snapshot');
      const [port, wsPort] = [await freePort(), await freePort()];
      const mint = Keypair.generate().publicKey.toBase58();
      const tokenAccount = Keypair.generate().publicKey.toBase58();
      const funded = Keypair.generate().publicKey.toBase58();
      const mintData = Buffer.alloc(82);
      mintData[44] = 6;
      mintData[45] = 1;
      const snapshot = anchorSnapshot(dir, {
        [mint]: { lamports: 1_461_600, owner: TOKEN, data: mintData },
        [tokenAccount]: { lamports: 2_039_280, owner: TOKEN, data: Buffer.concat([new PublicKey(mint).toBuffer(), Buffer.alloc(133)]) },
        [funded]: { lamports: 1_000_000_000, owner: '11111111111111111111111111111111', data: Buffer.alloc(0) },
      });
      const airdrop = Keypair.generate().publicKey.toBase58();
      const argv = [
        'surfpool',
        'start',
        '--snapshot',
        snapshot,
        '--airdrop',
        airdrop,
        '--host',
        '0.0.0.0',
        '--port',
        String(port),
        '--ws-port',
        String(wsPort),
        ...TEST_MODE,
        '--legacy-anchor-compatibility',
        '--anchor-test-config-path',
        join(dir, 'Anchor.toml'),
      ];
      const surfnet = await serveCli(argv, port, { cwd: dir, env: { HOME: home } });
      try {
        // No token, on a bind other machines reach: it only reads.
        expect(await anchorPoll(port)).toEqual([{ runbookId: 'deployment', startedAt: expect.any(Number), completedAt: expect.any(Number), errors: null }]);
        // Each generated account as Anchor wrote it, its rent epoch exact.
        const { text, json } = await raw(port, 'getMultipleAccounts', [[mint, tokenAccount, funded], { encoding: 'base64' }]);
        expect(json.result.value.map((account: { lamports: number }) => account.lamports)).toEqual([1_461_600, 2_039_280, 1_000_000_000]);
        expect(json.result.value[0].data[0]).toBe(mintData.toString('base64'));
        expect(text.match(/"rentEpoch":18446744073709551615/g)).toHaveLength(3);
        expect((await raw(port, 'getAccountInfo', [funded, { encoding: 'base58' }])).json.result.value.data).toEqual(['', 'base58']);
        // The workspace deployed (--legacy-anchor-compatibility), Anchor.toml's account loaded (it is the test config), the airdrop made.
        expect((await raw(port, 'getAccountInfo', [PUPPET, { encoding: 'base64' }])).json.result.value.executable).toBe(true);
        expect((await raw(port, 'getAccountInfo', [PUPPET_DATA, { encoding: 'base64' }])).json.result.value).not.toBeNull();
        expect((await raw(port, 'getBalance', [airdrop])).json.result.value).toBe(10_000 * 1e9);
        // PubSub on the ws_port asked for.
        const socket = new WebSocket(`ws://127.0.0.1:${wsPort}`);
        const answer = await new Promise<any>((resolve, reject) => {
          socket.once('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' })));
          socket.once('message', (data) => resolve(JSON.parse(String(data))));
          socket.once('error', reject);
        });
        socket.close();
        expect(answer).toMatchObject({ id: 1, result: expect.any(Number) });
        // --log-level none prints nothing, but the log says where it ran.
        expect(surfnet.output()).not.toMatch(/relay-emulator ready/);
        expect(surfpoolLog(dir)).toMatch(
          new RegExp(`ready \\(pid ${surfnet.child.pid}\\): RPC http://127\\.0\\.0\\.1:${port}, WebSocket ws://127\\.0\\.0\\.1:${wsPort}`),
        );
      } finally {
        await surfnet.stop('SIGKILL');
      }
      for (const free of [port, wsPort]) await expect(fetch(`http://127.0.0.1:${free}/health`)).rejects.toThrow();
    },
    2 * MINUTE,
  );

  it(
    'a runbook it cannot run (manifest_file_path, runbooks) is reported completed with its reason, on stderr and in .surfpool/logs',
    async () => {
      const dir = workspace('ws-runbook');
      const port = await freePort();
      const argv = ['surfpool', 'start', '--host', '127.0.0.1', '--port', String(port), '--manifest-file-path', './Surfpool.toml', '--runbook', 'deployment'];
      const surfnet = await serveCli(
        [...argv, '--runbook', 'seed', ...TEST_MODE, '--legacy-anchor-compatibility', '--anchor-test-config-path', join(dir, 'Anchor.toml')],
        port,
        { cwd: dir, env: { HOME: home } },
      );
      try {
        const reason =
          `relay-emulator cannot run txtx runbooks (deployment, seed): deployed ${join(dir, 'Anchor.toml')}'s programs and test accounts instead, ` +
          'as --legacy-anchor-compatibility does';
        expect(await anchorPoll(port)).toEqual([
          { runbookId: 'deployment', startedAt: expect.any(Number), completedAt: expect.any(Number), errors: [reason] },
          { runbookId: 'seed', startedAt: expect.any(Number), completedAt: expect.any(Number), errors: [reason] },
        ]);
        expect(surfnet.output()).toContain(`relay-emulator surfpool: ${reason}\n`);
        expect(surfpoolLog(dir)).toContain(` WARN surfpool] ${reason}\n`);
        expect((await raw(port, 'getAccountInfo', [PUPPET, { encoding: 'base64' }])).json.result.value.executable).toBe(true);
      } finally {
        await surfnet.stop('SIGKILL');
      }
    },
    2 * MINUTE,
  );

  it(
    'merges Test.toml suites as Surfpool does: each file’s accounts by its own folder, `extends` followed, Anchor.toml’s accounts deferred to them',
    async () => {
      const dir = workspace('ws-suites');
      const account = (name: string, lamports: number) => {
        const address = Keypair.generate().publicKey.toBase58();
        const dump = {
          pubkey: address,
          account: { lamports, data: ['', 'base64'], owner: '11111111111111111111111111111111', executable: false, rentEpoch: 0 },
        };
        return { address, name, dump };
      };
      const [a, b, base] = [account('a.json', 111), account('b.json', 222), account('base.json', 333)];
      for (const [folder, entry] of [
        ['suite-a', a],
        ['suite-b', b],
        ['shared', base],
      ] as const) {
        mkdirSync(join(dir, 'tests', folder), { recursive: true });
        writeFileSync(join(dir, 'tests', folder, entry.name), JSON.stringify(entry.dump));
      }
      const table = (entry: typeof a) => `[[test.validator.account]]\naddress = "${entry.address}"\nfilename = "${entry.name}"\n`;
      writeFileSync(join(dir, 'tests/shared/base.toml'), table(base));
      writeFileSync(join(dir, 'tests/suite-a/Test.toml'), `extends = ["../shared/base.toml"]\n\n${table(a)}`);
      writeFileSync(join(dir, 'tests/suite-b/Test.toml'), table(b));
      const port = await freePort();
      const configs = ['suite-a', 'suite-b'].flatMap((suite) => ['--anchor-test-config-path', join(dir, 'tests', suite, 'Test.toml')]);
      const surfnet = await serveCli(['surfpool', 'start', '--port', String(port), ...TEST_MODE, '--legacy-anchor-compatibility', ...configs], port, {
        cwd: dir,
        env: { HOME: home },
      });
      try {
        const balance = async (address: string) => (await raw(port, 'getBalance', [address])).json.result.value;
        expect([await balance(a.address), await balance(b.address), await balance(base.address)]).toEqual([111, 222, 333]);
        // Anchor.toml's own [[test.validator.account]] is not among the suites: deferred, not loaded.
        expect((await raw(port, 'getAccountInfo', [PUPPET_DATA])).json.result.value).toBeNull();
        expect((await raw(port, 'getAccountInfo', [PUPPET, { encoding: 'base64' }])).json.result.value.executable).toBe(true);
      } finally {
        await surfnet.stop('SIGKILL');
      }
    },
    2 * MINUTE,
  );

  it(
    'surfnet_exportSnapshot writes what --snapshot loads back, exactly',
    async () => {
      const dir = join(root, 'export');
      mkdirSync(dir);
      const [first, second] = [await freePort(), await freePort()];
      const common = [...TEST_MODE, '--no-deploy'];
      const a = await serveCli(['surfpool', 'start', '--port', String(first), '--ws-port', String(first + 1), ...common], first, {
        cwd: dir,
        env: { HOME: home },
      });
      const big = Keypair.generate().publicKey.toBase58();
      let exported: string;
      try {
        // Lamports past 2^53, sent as digits (a JavaScript number would round them).
        const set = await fetch(`http://127.0.0.1:${first}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["${big}",{"lamports":9007199254740993,"data":"deadbeef","owner":"${TOKEN}"}]}`,
        });
        expect(((await set.json()) as any).result.value).toBeNull();
        exported = /"value":(\{.*\})\},"id"/s.exec((await raw(first, 'surfnet_exportSnapshot', [])).text)![1]!;
        expect(exported).toContain(
          `"${big}":{"lamports":9007199254740993,"owner":"${TOKEN}","executable":false,"rentEpoch":18446744073709551615,"data":"3q2+7w==","parsedData":null}`,
        );
      } finally {
        await a.stop('SIGKILL');
      }
      writeFileSync(join(dir, 'snapshot.json'), exported);
      const b = await serveCli(
        ['surfpool', 'start', '--snapshot', join(dir, 'snapshot.json'), '--port', String(second), '--ws-port', String(second + 1), ...common],
        second,
        { cwd: dir, env: { HOME: home } },
      );
      try {
        expect(/"value":(\{.*\})\},"id"/s.exec((await raw(second, 'surfnet_exportSnapshot', [])).text)![1]).toBe(exported);
      } finally {
        await b.stop('SIGKILL');
      }
    },
    2 * MINUTE,
  );

  it('takes SURFPOOL_DATASOURCE_RPC_URL for --rpc-url through the clone cache, runs clock mode’s slots, and writes a refusal to .surfpool/logs', async () => {
    const dir = join(root, 'env');
    mkdirSync(dir);
    // The cluster, fetched from once into the clone cache, then gone: the stand-in reads the cache.
    const cloned = Keypair.generate().publicKey.toBase58();
    const cluster = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { method } = JSON.parse(body) as { method: string };
        response.writeHead(200, { 'content-type': 'application/json' });
        if (method !== 'getMultipleAccounts') return response.end('{"jsonrpc":"2.0","id":1,"result":5}');
        const account = '{"lamports":4321,"data":["AQID","base64"],"owner":"11111111111111111111111111111111","executable":false,"rentEpoch":0,"space":3}';
        response.end(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":5},"value":[${account}]}}`);
      });
    });
    await new Promise<void>((resolve) => cluster.listen(0, '127.0.0.1', resolve));
    const clusterUrl = `http://127.0.0.1:${(cluster.address() as { port: number }).port}/`;
    await clonedDumps({ url: clusterUrl, accounts: [cloned], cache: join(dir, 'cache') });
    await new Promise((resolve) => cluster.close(resolve));
    const port = await freePort();
    const surfnet = await serveCli(['surfpool', 'start', '--port', String(port), '--ws-port', String(port + 1), '--no-deploy', '--slot-time', '100'], port, {
      cwd: dir,
      env: { HOME: home, SURFPOOL_DATASOURCE_RPC_URL: clusterUrl, RELAY_EMULATOR_CLONE_CACHE: join(dir, 'cache') },
    });
    try {
      expect((await raw(port, 'getBalance', [cloned])).json.result.value).toBe(4321);
      // Clock mode (Surfpool's default): slots go by on their own, --slot-time apart.
      const slot = (await raw(port, 'getSlot', [])).json.result as number;
      await expect.poll(async () => (await raw(port, 'getSlot', [])).json.result, { timeout: 10_000 }).toBeGreaterThan(slot + 2);
    } finally {
      await surfnet.stop('SIGKILL');
    }
    expect(surfnet.output()).toContain(`relay-emulator surfpool: ${clusterUrl}: 1 account(s) from the clone cache (no network)`);
    rmSync(join(dir, '.surfpool'), { recursive: true });
    const refused = await runCli(['surfpool', 'start', '--geyser-plugin-config', 'x.json'], { cwd: dir, env: { HOME: home } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^Error: Unknown option '--geyser-plugin-config'; it cannot be honoured here/);
    expect(surfpoolLog(dir)).toMatch(/ ERROR surfpool\] Unknown option '--geyser-plugin-config'; it cannot be honoured here/);
    expect((await runCli(['surfpool', '--version'], { cwd: dir })).stdout).toMatch(/^surfpool 1\.5\.0 \(relay-emulator [\d.]+\)\n$/);
    expect(existsSync(join(dir, 'txtx.yml'))).toBe(false);
  });

  it(
    'stops itself when Anchor drops it without a kill (its poll failed): started with Anchor’s test flags, it outlives its parent by a second',
    async () => {
      const dir = join(root, 'orphan');
      mkdirSync(dir);
      const port = await freePort();
      const args = ['surfpool', 'start', '--port', String(port), '--ws-port', String(port + 1), ...TEST_MODE, '--no-deploy'];
      // A parent named anchor that starts it, waits while it serves (Anchor polls it), and exits without a kill, as
      // Anchor does when its poll fails. The same from a shell of another name keeps running, as Surfpool does.
      const quoted = [process.execPath, ...CLI_ARGS, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
      symlinkSync('/bin/sh', join(dir, 'anchor'));
      const parent = await runShell(`${quoted} >/dev/null 2>&1 & echo $!; sleep 8`, dir, join(dir, 'anchor'));
      const pid = Number(parent.trim());
      expect(pid).toBeGreaterThan(0);
      await expect.poll(() => isProcessAlive(pid), { timeout: 20_000, interval: 250 }).toBe(false);
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
      // It served while its parent lived, and stopped itself once it was gone.
      const log = surfpoolLog(dir);
      expect(log).toContain(`ready (pid ${pid}): RPC http://127.0.0.1:${port}`);
      expect(log).toMatch(/WARN surfpool\] anchor \(pid \d+\) is gone without stopping surfpool: stopping/);
      // Started from a shell (nohup, a script that backgrounds it): it outlives the shell, as Surfpool does.
      const other = await freePort();
      const background = ['surfpool', 'start', '--port', String(other), '--ws-port', String(other + 1), ...TEST_MODE, '--no-deploy'];
      const line = [process.execPath, ...CLI_ARGS, ...background].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
      const survivor = Number((await runShell(`${line} >/dev/null 2>&1 & echo $!; sleep 8`, dir)).trim());
      try {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        expect(isProcessAlive(survivor)).toBe(true);
        expect((await fetch(`http://127.0.0.1:${other}/health`)).ok).toBe(true);
      } finally {
        process.kill(survivor, 'SIGKILL');
      }
    },
    2 * MINUTE,
  );
});
