/**
 * Issue 43: mainnet's accounts, fetched once and tested offline. The cluster is a second emulator
 * (it is an RPC) serving Light Protocol's account dumps (from `@lightprotocol/zk-compression-cli`,
 * installed at test time: test/real-clients/light), an upgradeable program (anchor-bankrun's
 * puppet, test/real-clients/anchor) and a lookup table. `relay-emulator clone` writes its accounts
 * as the CLI dumps them; `start --clone` serves them and runs the cloned program through the relay;
 * with the cluster gone, a restart serves them from the clone cache; every refusal is one line.
 */
import { createServer, type Server } from 'node:http';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair, PublicKey, Transaction, TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { programDataAddress } from '../../src/domain/ledger/program-accounts.ts';
import { CLI_ARGS, runCli, startCli } from '../support/cli-process.ts';
import { readmeBlock } from '../support/readme.ts';
import { run } from '../support/user-shell.ts';
import { installJudge } from '../support/judge-install.ts';
import { rpcAt } from '../support/json-rpc.ts';
import { freePort } from '../support/emulator-process.ts';

const MINUTE = 60_000;
const PUPPET = 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS';
const PUPPET_SO = fileURLToPath(new URL('../real-clients/anchor/workspace/target/deploy/puppet.so', import.meta.url));
const LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';

describe('clones of a cluster', () => {
  const root = mkdtempSync(join(tmpdir(), 'relay-emulator-clone-'));
  let cluster: RelayEmulator;
  let url: string;
  let light: string[];
  let table: string;
  const tableEntries = [Keypair.generate().publicKey, Keypair.generate().publicKey];

  beforeAll(async () => {
    const installed = await installJudge(fileURLToPath(new URL('../real-clients/light/', import.meta.url)));
    const accounts = join(installed, 'node_modules/@lightprotocol/zk-compression-cli/accounts');
    cluster = await createRelayEmulator({
      accountDirs: [accounts],
      programs: [{ programId: PUPPET, path: PUPPET_SO, upgradeAuthority: null, loader: 'upgradeable' }],
    });
    url = cluster.config.rpcUrl;
    light = readdirSync(accounts)
      .filter((name) => name.endsWith('.json'))
      .slice(0, 3)
      .map((name) => (JSON.parse(readFileSync(join(accounts, name), 'utf8')) as { pubkey: string }).pubkey);
    // A lookup table listing a funded account and one that does not exist.
    await cluster.faucet({ address: tableEntries[0]!, lamports: 3_000_000 });
    const data = Buffer.alloc(56 + 64);
    data.writeUInt32LE(1, 0);
    data.writeBigUInt64LE(0xffff_ffff_ffff_ffffn, 4);
    for (const [index, key] of tableEntries.entries()) key.toBuffer().copy(data, 56 + 32 * index);
    table = Keypair.generate().publicKey.toBase58();
    await cluster.setAccount(table, { lamports: 2_000_000n, owner: LOOKUP_TABLE_PROGRAM, data, executable: false });
  }, 6 * MINUTE);
  afterAll(async () => {
    await cluster?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    'relay-emulator clone writes what the cluster holds as Solana CLI dumps, with a manifest, that --account-dir loads byte for byte',
    async () => {
      const out = join(root, 'fixtures');
      const ran = await runCli(['clone', '--url', url, '--out', out, ...light, '--upgradeable-program', PUPPET, '--lookup-table', table]);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(
        new RegExp(`^cloned ${light.length + 2 + 2} account\\(s\\) from ${url} at slot \\d+ into .*fixtures \\(load them with --account-dir\\)\\n$`),
      );
      expect(ran.stderr).toBe(`relay-emulator clone: ${tableEntries[1]!.toBase58()}: ${url} has no such account; skipped\n`);
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
      expect(manifest.url).toBe(url);
      expect(manifest.accounts[PUPPET]).toMatchObject({ slot: expect.any(Number), fetchedAt: expect.any(String), kind: 'clone-upgradeable-program' });
      const programData = programDataAddress(new PublicKey(PUPPET)).toBase58();
      expect(manifest.accounts[programData].kind).toBe(`programdata of ${PUPPET}`);
      // A second emulator from the folder alone: the same bytes, the program's deploy slot 0.
      const copy = await createRelayEmulator({ accountDirs: [out] });
      try {
        for (const address of [...light, table, tableEntries[0]!.toBase58()]) {
          const [theirs, ours] = await Promise.all([cluster.getAccount(address), copy.getAccount(address)]);
          expect(ours, address).toEqual(theirs);
        }
        const data = (await copy.getAccount(programData))!.data;
        expect(Buffer.from(data).readBigUInt64LE(4)).toBe(0n);
        expect((await copy.programs()).programs.map(({ programId }) => programId)).toContain(PUPPET);
      } finally {
        await copy.close();
      }
    },
    2 * MINUTE,
  );

  it(
    'start --clone serves the clones, runs the cloned program through the relay, and serves them from the cache once the cluster is gone',
    async () => {
      const cache = join(root, 'cache');
      // The cluster behind a proxy of its own, which goes away: the cluster as the start knows it.
      const proxy: Server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', async () => {
          const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
          response.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const proxied = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
      const maybe = Keypair.generate().publicKey.toBase58();
      const args = ['--url', proxied, '--clone', light[0]!, '--maybe-clone', maybe, '--clone-upgradeable-program', PUPPET, '--clone-cache', cache];
      const first = await startCli(args);
      try {
        expect(first.output()).toMatch(new RegExp(`clones: 3 account\\(s\\) from ${proxied} at slot \\d+, fetched \\S+ \\(3 fetched now; `));
        expect(first.output()).toContain(`--maybe-clone ${maybe}: ${proxied} has no such account; skipped`);
        const rpc = rpcAt(first.rpcUrl);
        expect((await rpc('getAccountInfo', [light[0], { encoding: 'base64' }])).value).not.toBeNull();
        // The cloned program is the app's: the relay sponsors a call to it (rule P1).
        const account = Keypair.generate();
        const user = Keypair.generate();
        await rpc('requestAirdrop', [user.publicKey.toBase58(), 1_000_000_000]);
        const config = (await (await fetch(`${first.baseUrl}/Transaction/config`, { headers: { 'X-API-Key': 'relay-emulator-dev-key' } })).json()) as Record<
          string,
          string
        >;
        const { value } = await rpc('getLatestBlockhash');
        const initialize = new TransactionInstruction({
          programId: new PublicKey(PUPPET),
          keys: [
            { pubkey: account.publicKey, isSigner: true, isWritable: true },
            { pubkey: user.publicKey, isSigner: true, isWritable: true },
            { pubkey: new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
          ],
          data: Buffer.from([175, 175, 109, 31, 13, 152, 155, 237]),
        });
        const tx = new Transaction({ feePayer: new PublicKey(config.FeePayer ?? config.feePayer!), recentBlockhash: value.blockhash });
        tx.add(initialize);
        tx.partialSign(account, user);
        const sent = await fetch(`${first.baseUrl}/Transaction/send`, {
          method: 'POST',
          headers: { 'X-API-Key': 'relay-emulator-dev-key', 'Content-Type': 'application/json' },
          body: JSON.stringify({ transaction: tx.serialize({ requireAllSignatures: false }).toString('base64') }),
        });
        expect(sent.status, await sent.clone().text()).toBe(200);
        const owner = async () => (await rpc('getAccountInfo', [account.publicKey.toBase58(), { encoding: 'base64' }])).value?.owner;
        await expect.poll(owner, { timeout: 20_000 }).toBe(PUPPET);
      } finally {
        await first.stop();
      }

      await new Promise((resolve) => proxy.close(resolve));
      await expect(rpcAt(proxied)('getSlot')).rejects.toThrow();
      // The same flags, with the cluster gone: the cache holds all of it.
      const second = await startCli(args);
      try {
        expect(second.output()).toMatch(/clones: 3 account\(s\) from .* \(from the clone cache, no network; /);
        expect((await rpcAt(second.rpcUrl)('getAccountInfo', [light[0], { encoding: 'base64' }])).value).not.toBeNull();
      } finally {
        await second.stop();
      }
      // Another URL, where nobody listens and nothing is cached: one line naming the URL and the addresses.
      const closed = await freePort();
      const refused = await runCli(['start', '--port', '0', ...args.map((arg) => (arg === proxied ? `http://127.0.0.1:${closed}/rpc` : arg))]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(`^relay-emulator: cannot start: http://127\\.0\\.0\\.1:${closed}/rpc cannot be reached \\(ECONNREFUSED, after 4 tries; `),
      );
      expect(refused.stderr).toContain(`lacks ${light[0]}, ${maybe}, ${PUPPET})`);
      expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    },
    3 * MINUTE,
  );

  it(
    'refuses a --clone the cluster lacks, an upgradeable program that is none, and a 429 that never ends, each in one line',
    async () => {
      const lacking = Keypair.generate().publicKey.toBase58();
      const missing = await runCli(['start', '--port', '0', '--url', url, '--clone', lacking, '--clone-cache', join(root, 'cache-2')]);
      expect(missing).toMatchObject({ code: 1, stderr: `relay-emulator: cannot start: --clone ${lacking}: the cluster has no such account (--url ${url})\n` });
      const notProgram = await runCli(['start', '--port', '0', '--url', url, '--clone-upgradeable-program', light[0]!, '--clone-cache', join(root, 'cache-3')]);
      expect(notProgram.stderr).toBe(
        `relay-emulator: cannot start: --clone-upgradeable-program ${light[0]}: it is not an upgradeable program (--url ${url})\n`,
      );
      let asked = 0;
      const busy: Server = createServer((_request, response) => {
        asked += 1;
        response.writeHead(429).end('Too Many Requests');
      });
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      try {
        const port = (busy.address() as { port: number }).port;
        const limited = await runCli(['start', '--port', '0', '--url', `http://127.0.0.1:${port}`, '--clone', lacking, '--clone-cache', join(root, 'cache-4')]);
        expect(limited.stderr).toMatch(
          new RegExp(
            `^relay-emulator: cannot start: http://127\\.0\\.0\\.1:${port} cannot be reached \\(it answered 429, after 4 tries; .* lacks ${lacking}\\)\\n$`,
          ),
        );
        expect(asked).toBe(4);
      } finally {
        busy.close();
      }
    },
    3 * MINUTE,
  );

  it(
    'runs the README’s lines: clone once, then start offline from the folder',
    async () => {
      const block = readmeBlock('Mainnet accounts').code.trim();
      const [clone, start] = block
        .split('\n')
        .reduce<string[]>(
          (lines, line) => (lines.at(-1)?.endsWith('\\') ? [...lines.slice(0, -1), `${lines.at(-1)!.slice(0, -1)}${line.trim()}`] : [...lines, line]),
          [],
        ) as [string, string];
      expect(clone).toMatch(/^npx relay-emulator clone --url mainnet-beta --out fixtures\/mainnet /);
      const project = join(root, 'readme');
      const relayEmulator = `${process.execPath} ${CLI_ARGS.join(' ')}`;
      const written = clone
        .replace('npx relay-emulator', relayEmulator)
        .replace('mainnet-beta', url)
        .replace('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', light[2]!)
        .replace('PROGRAM_ID', PUPPET)
        .replace('TABLE_ID', table);
      mkdirSync(project, { recursive: true });
      const ran = await run('sh', ['-c', written], { cwd: project });
      expect(ran.code, ran.output).toBe(0);
      expect(readdirSync(join(project, 'fixtures/mainnet'))).toContain('manifest.json');
      expect(start).toBe('npx relay-emulator start --account-dir fixtures/mainnet     # offline, every run');
      const served = await startCli(['--account-dir', 'fixtures/mainnet'], { cwd: project });
      try {
        expect((await rpcAt(served.rpcUrl)('getAccountInfo', [light[2], { encoding: 'base64' }])).value).not.toBeNull();
      } finally {
        await served.stop();
      }
    },
    2 * MINUTE,
  );

  it(
    'takes Anchor.toml’s [[test.validator.clone]] with its url, a program with its data, and names the keys it does not honour',
    async () => {
      const workspace = join(root, 'workspace');
      cpSync(fileURLToPath(new URL('../real-clients/anchor/workspace', import.meta.url)), workspace, { recursive: true });
      writeFileSync(
        join(workspace, 'Anchor.toml'),
        `[provider]\ncluster = "Localnet"\nwallet = "~/.config/solana/id.json"\n\n[test.validator]\nurl = "${url}"\nbind_address = "0.0.0.0"\n\n` +
          `[[test.validator.clone]]\naddress = "${light[1]}"\n\n[[test.validator.clone]]\naddress = "${PUPPET}"\n`,
      );
      rmSync(join(workspace, 'target'), { recursive: true });
      const emulator = await createRelayEmulator({ anchor: workspace, clone: { url, cache: join(root, 'cache-5') }, loopback: false });
      try {
        expect(await emulator.getAccount(light[1]!)).not.toBeNull();
        expect(await emulator.getAccount(programDataAddress(new PublicKey(PUPPET)))).not.toBeNull();
        expect(emulator.warnings).toContainEqual(expect.stringMatching(/Anchor\.toml: \[test\.validator\] bind_address not honoured by this start/));
        expect(emulator.notes).toContainEqual(expect.stringMatching(/^clones: 3 account\(s\) from /));
      } finally {
        await emulator.close();
      }
    },
    2 * MINUTE,
  );
});
