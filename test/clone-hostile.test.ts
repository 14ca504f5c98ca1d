/**
 * Issue 53, items 3, 4, 8, 11, 12 and 17: `clone` and the clone cache against a hostile cluster and
 * a tampered cache. The cluster is a node:http server on 127.0.0.1 that answers what each test sets;
 * the cache is a folder of the test's. Every refusal is one line naming the URL or the file, and
 * nothing outside the cache is read, written or followed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCloneCommand } from '../src/adapters/cli/clone/clone-command.ts';
import { isInternalError } from '../src/base/errors/internal-error.ts';
import { cloneFolder, clonedDumps } from '../src/domain/fixtures/clone-cache.ts';

type Answer = (method: string, params: unknown[], response: ServerResponse) => void;

const root = mkdtempSync(join(tmpdir(), 'relay-emulator-clone-hostile-'));
const SYSTEM = '11111111111111111111111111111111';
let answer: Answer = () => undefined;
let cluster: Server;
let url: string;
/** Requests a second server (where a redirect points) was sent. */
let victimHits = 0;
let victim: Server;
let victimUrl: string;

const json = (response: ServerResponse, body: string) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(body);
};
/** getMultipleAccounts answered with `accounts` written as JSON text (so that a number past 2^53 or 1e400 is sent as written). */
const accountsAnswer =
  (accounts: string[]): Answer =>
  (method, _params, response) => {
    if (method === 'getSlot') return json(response, '{"jsonrpc":"2.0","id":1,"result":77}');
    json(response, `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":77},"value":[${accounts.join(',')}]}}`);
  };
const account = (fields: Partial<Record<'lamports' | 'data' | 'owner' | 'executable', string>> = {}) =>
  `{"lamports":${fields.lamports ?? '1000'},"data":${fields.data ?? '["AQID","base64"]'},"owner":${fields.owner ?? `"${SYSTEM}"`},` +
  `"executable":${fields.executable ?? 'false'},"rentEpoch":18446744073709551615,"space":3}`;

function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<[Server, string]> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve([server, `http://127.0.0.1:${(server.address() as { port: number }).port}`])));
}

beforeAll(async () => {
  [cluster, url] = await listen((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { method, params } = JSON.parse(body) as { method: string; params: unknown[] };
      answer(method, params, response);
    });
  });
  [victim, victimUrl] = await listen((_request, response) => {
    victimHits += 1;
    response.end('{}');
  });
});
afterAll(async () => {
  await new Promise((resolve) => cluster.close(resolve));
  await new Promise((resolve) => victim.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** The one-line message of what `run` throws. */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(isInternalError(error), String(error)).toBe(true);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  throw new Error('it was not refused');
}

const cache = () => mkdtempSync(join(root, 'cache-'));

describe('clone, against a hostile cluster', () => {
  it('follows no redirect: a 307 to an emulator’s reset is refused, and nothing is sent there (item 11)', async () => {
    answer = (_method, _params, response) => {
      response.writeHead(307, { location: `${victimUrl}/__emulator/reset` });
      response.end();
    };
    const address = Keypair.generate().publicKey.toBase58();
    const message = await refusal(() => clonedDumps({ url, accounts: [address], cache: cache() }));
    expect(message).toBe(`${url}: getSlot: it answered 307 (a redirect to ${victimUrl}/__emulator/reset); relay-emulator follows no redirect`);
    expect(victimHits).toBe(0);
  });

  it('reads an answer no further than its bound: a gzip bomb is refused, not inflated (item 8)', async () => {
    // 300 MiB of zeros, some 300 KB on the wire.
    const gzip = createGzip();
    const compressed: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => compressed.push(chunk));
    const zeros = Buffer.alloc(1024 * 1024);
    for (let mib = 0; mib < 300; mib += 1) gzip.write(zeros);
    await new Promise((resolve) => gzip.end(resolve));
    const bomb = Buffer.concat(compressed);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    answer = (method, _params, response) => {
      if (method === 'getSlot') return json(response, '{"jsonrpc":"2.0","id":1,"result":77}');
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(bomb);
    };
    const message = await refusal(() => clonedDumps({ url, accounts: [Keypair.generate().publicKey.toBase58()], cache: cache() }));
    expect(message).toBe(`${url}: getMultipleAccounts: its answer is larger than 268435456 bytes; relay-emulator reads no more`);
  });

  it('keeps lamports past 2^53 exactly', async () => {
    answer = accountsAnswer([account({ lamports: '9007199254740993' })]);
    const address = Keypair.generate().publicKey.toBase58();
    const [dump] = (await clonedDumps({ url, accounts: [address], cache: cache() })).files;
    expect(readFileSync(dump!.path, 'utf8')).toMatch(/"lamports": 9007199254740993,/);
  });

  it.each([
    ['lamports of 1.5', account({ lamports: '1.5' }), 'lamports 1.5 is not a whole number of lamports'],
    ['lamports of 1e400', account({ lamports: '1e400' }), 'lamports 1e400 is not a whole number of lamports'],
    ['lamports past u64', account({ lamports: '18446744073709551616' }), 'lamports 18446744073709551616 is past u64, which no account holds'],
    ['data that is not base64', account({ data: '["@@@@","base64"]' }), 'its data is not valid base64'],
    ['data that is not a list', account({ data: '{"a":1}' }), 'its data is not ["<base64>", "base64"]'],
    ['an owner that is not an address', account({ owner: '"not-base58-0OIl"' }), 'its owner "not-base58-0OIl" is not an address'],
  ])('refuses %s in one line naming the URL and the address (item 12)', async (_, sent, problem) => {
    answer = accountsAnswer([sent]);
    const address = Keypair.generate().publicKey.toBase58();
    const folder = cache();
    expect(await refusal(() => clonedDumps({ url, accounts: [address], cache: folder }))).toBe(`${address}: ${problem} (--url ${url})`);
    // Nothing was written to the cache.
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses `result: null`, and an answer that is not JSON-RPC', async () => {
    const address = Keypair.generate().publicKey.toBase58();
    answer = (method, _params, response) =>
      json(response, method === 'getSlot' ? '{"jsonrpc":"2.0","id":1,"result":77}' : '{"jsonrpc":"2.0","id":1,"result":null}');
    expect(await refusal(() => clonedDumps({ url, accounts: [address], cache: cache() }))).toBe(
      `getMultipleAccounts of 1 address(es) (${address}) answered no list of 1 accounts (--url ${url})`,
    );
    answer = (_method, _params, response) => json(response, '<html>');
    expect(await refusal(() => clonedDumps({ url, accounts: [address], cache: cache() }))).toBe(
      `${url} answered getSlot with something that is not JSON-RPC (HTTP 200)`,
    );
  });

  it('refuses a "program data" that is not the program’s (item 12)', async () => {
    const program = Keypair.generate().publicKey;
    // A program account (state 2) naming a data address, whose "data" is a plain system account.
    const programData = Buffer.alloc(36);
    programData.writeUInt32LE(2, 0);
    const dataAddress = Keypair.generate().publicKey;
    dataAddress.toBuffer().copy(programData, 4);
    answer = (method, params, response) => {
      if (method === 'getSlot') return json(response, '{"jsonrpc":"2.0","id":1,"result":77}');
      const [[asked]] = params as [[string]];
      const upgradeable = '"BPFLoaderUpgradeab1e11111111111111111111111"';
      json(
        response,
        `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":77},"value":[${
          asked === program.toBase58() ? account({ owner: upgradeable, executable: 'true', data: `["${programData.toString('base64')}","base64"]` }) : account()
        }]}}`,
      );
    };
    const message = await refusal(() => clonedDumps({ url, upgradeablePrograms: [program.toBase58()], cache: cache() }));
    expect(message).toMatch(/^--clone-upgradeable-program \w+: \w+ is not its program data/);
  });

  it('`clone` refuses a bad address in one line, before asking the cluster', async () => {
    let stderr = '';
    const code = await runCloneCommand(['--url', url, '--out', join(root, 'never'), 'not-an-address'], {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    expect(code).toBe(2);
    expect(stderr).toBe('relay-emulator clone: ADDRESS takes an address (base58 of 32 bytes), not "not-an-address"\n');
  });
});

describe('the clone cache and clone folders, tampered with', () => {
  it('a cached absence answers only --maybe-clone: a later --clone of it asks the cluster again (item 17)', async () => {
    const folder = cache();
    const address = Keypair.generate().publicKey.toBase58();
    answer = accountsAnswer(['null']);
    const maybe = await clonedDumps({ url, maybe: [address], cache: folder });
    expect(maybe.warnings).toEqual([`--maybe-clone ${address}: ${url} has no such account; skipped`]);
    // Offline now: the cache's absence does not satisfy --clone.
    answer = (_method, _params, response) => response.destroy();
    const offline = await refusal(() => clonedDumps({ url, accounts: [address], cache: folder }));
    expect(offline).toMatch(new RegExp(`^${url} cannot be reached \\(.*; the clone cache .* lacks ${address}\\)$`));
    // Online and still missing: --clone refuses, as it must.
    answer = accountsAnswer(['null']);
    expect(await refusal(() => clonedDumps({ url, accounts: [address], cache: folder }))).toBe(
      `--clone ${address}: the cluster has no such account (--url ${url})`,
    );
  }, 30_000);

  it('a manifest key that is no address is refused, and nothing outside the cache is loaded (item 3)', async () => {
    const folder = cache();
    const address = Keypair.generate().publicKey.toBase58();
    answer = accountsAnswer([account()]);
    await clonedDumps({ url, accounts: [address], cache: folder });
    const clusterFolder = cloneFolder(folder, url);
    const manifestPath = join(clusterFolder, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { accounts: Record<string, unknown> };
    manifest.accounts['../../x'] = manifest.accounts[address];
    writeFileSync(manifestPath, JSON.stringify(manifest));
    expect(await refusal(() => clonedDumps({ url, accounts: [address], cache: folder }))).toBe(
      `--clone-cache ${clusterFolder}: its manifest.json lists "../../x", which is not an address; ` +
        'a clone folder holds only what relay-emulator wrote (delete the folder to start again)',
    );
  });

  it('a dump linked to a user’s file is neither read nor written through, --refresh-clones included (item 3)', async () => {
    const folder = cache();
    const address = Keypair.generate().publicKey.toBase58();
    answer = accountsAnswer([account()]);
    await clonedDumps({ url, accounts: [address], cache: folder });
    const dump = join(cloneFolder(folder, url), `${address}.json`);
    const precious = join(root, 'precious.json');
    writeFileSync(precious, 'the user’s\n');
    rmSync(dump);
    symlinkSync(precious, dump);
    expect(await refusal(() => clonedDumps({ url, accounts: [address], cache: folder, refresh: true }))).toMatch(
      new RegExp(`^--clone-cache ${dump}: it is a symbolic link \\(to ${precious}\\) that relay-emulator did not write; it was left as it is$`),
    );
    expect(readFileSync(precious, 'utf8')).toBe('the user’s\n');
  });

  it('`clone --out` refuses a folder with a web app’s manifest.json, and leaves it (item 4)', async () => {
    const out = join(root, 'public');
    mkdirSync(out);
    const pwa = '{"name":"My dapp","icons":[]}';
    writeFileSync(join(out, 'manifest.json'), pwa);
    answer = accountsAnswer([account()]);
    let stderr = '';
    const code = await runCloneCommand(['--url', url, '--out', out, Keypair.generate().publicKey.toBase58()], {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `relay-emulator clone: --out ${out}: it holds files relay-emulator did not write (no manifest.json of its own); ` +
        'a clone folder is written only into an empty folder, a new one, or one it wrote before\n',
    );
    expect(readdirSync(out)).toEqual(['manifest.json']);
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(pwa);
  });
});
