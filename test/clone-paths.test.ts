/**
 * Issue 53, documented paths of the clone cache that no test held: addresses asked in chunks of 100
 * (as solana-test-validator's clone asks), a 429, a 5xx and a dropped connection tried again, and
 * `--refresh-clones` (`refresh`) fetching again where a start reads the cache. The cluster is a
 * node:http server on 127.0.0.1 that counts what it is asked.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAccountDump } from '../src/domain/fixtures/account-dumps.ts';
import { clonedDumps } from '../src/domain/fixtures/clone-cache.ts';

const root = mkdtempSync(join(tmpdir(), 'relay-emulator-clone-paths-'));
let cluster: Server;
let url: string;
/** Each getMultipleAccounts: how many addresses it named. */
let asked: number[] = [];
/** What the next requests get before a real answer: a status, or `drop` (the connection closed). */
let failures: (number | 'drop')[] = [];
let lamports = 1000;

const account = () => `{"lamports":${lamports},"data":["AQID","base64"],"owner":"11111111111111111111111111111111","executable":false,"rentEpoch":0,"space":3}`;

beforeAll(async () => {
  cluster = createServer((request, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const failure = failures.shift();
      if (failure === 'drop') return response.destroy();
      if (failure !== undefined) {
        response.writeHead(failure);
        return response.end('busy');
      }
      const { method, params } = JSON.parse(body) as { method: string; params: [string[]] };
      response.writeHead(200, { 'content-type': 'application/json' });
      if (method !== 'getMultipleAccounts') return response.end('{"jsonrpc":"2.0","id":1,"result":77}');
      asked.push(params[0].length);
      response.end(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":77},"value":[${params[0].map(account).join(',')}]}}`);
    });
  });
  await new Promise<void>((resolve) => cluster.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(cluster.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => cluster.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const addresses = (count: number) => Array.from({ length: count }, () => Keypair.generate().publicKey.toBase58());
const cache = () => mkdtempSync(join(root, 'cache-'));

describe('the clone cache’s fetches', () => {
  it('asks for 250 addresses in chunks of 100, 100 and 50', async () => {
    asked = [];
    const cloned = await clonedDumps({ url, accounts: addresses(250), cache: cache() });
    expect(cloned.files).toHaveLength(250);
    expect(asked).toEqual([100, 100, 50]);
  });

  it('tries a 429, a 503 and a dropped connection again, and then takes the answer', async () => {
    asked = [];
    failures = [429, 503, 'drop'];
    const cloned = await clonedDumps({ url, accounts: addresses(1), cache: cache() });
    expect(cloned.files).toHaveLength(1);
    expect(failures).toEqual([]);
    expect(asked).toEqual([1]);
  }, 30_000);

  it('gives up after four tries, in one line naming the URL and what the cache lacks', async () => {
    const [address] = addresses(1);
    failures = [503, 503, 503, 503];
    await expect(clonedDumps({ url, accounts: [address!], cache: cache() })).rejects.toThrow(
      new RegExp(`^${url} cannot be reached \\(it answered 503, after 4 tries; the clone cache .* lacks ${address}\\)$`),
    );
    failures = [];
  }, 30_000);

  it('reads the cache on a later start, and fetches again with refresh (--refresh-clones)', async () => {
    const folder = cache();
    const [address] = addresses(1);
    lamports = 1000;
    const first = await clonedDumps({ url, accounts: [address!], cache: folder });
    lamports = 2000;
    asked = [];
    const cached = await clonedDumps({ url, accounts: [address!], cache: folder });
    expect(asked).toEqual([]);
    expect((await readAccountDump(cached.files[0]!.path)).account.lamports).toBe(1000n);
    const refreshed = await clonedDumps({ url, accounts: [address!], cache: folder, refresh: true });
    expect(asked).toEqual([1]);
    expect(first.files[0]!.path).toBe(refreshed.files[0]!.path);
    expect((await readAccountDump(refreshed.files[0]!.path)).account.lamports).toBe(2000n);
  });
});
