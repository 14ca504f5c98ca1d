/**
 * The `solana` shim against a cluster that answers badly (issue 53): each answer it cannot use is
 * one `Error:` line in the Solana CLI's way and exit code 1, never a stack; base64+zstd data is
 * decompressed no further than an account's 10 MiB.
 */
import { createServer, type Server } from 'node:http';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zstdCompress } from '../../../base/codecs/zstd.ts';
import { runSolanaCommand } from './solana-command.ts';

describe('solana account against a bad answer', () => {
  let server: Server;
  let url: string;
  let answer: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.end(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const account = async () => {
    let stdout = '';
    let stderr = '';
    const address = Keypair.generate().publicKey.toBase58();
    const code = await runSolanaCommand(['account', address, '--url', url], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => (stderr += text),
      env: { HOME: '/nonexistent' },
    });
    return { code, stdout, stderr, address };
  };
  const accountAnswer = (data: [string, string]) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: { context: { slot: 1 }, value: { lamports: 1, owner: '11111111111111111111111111111111', data, executable: false, rentEpoch: 0, space: 0 } },
    });

  it('refuses zstd data past an account’s 10 MiB, without decompressing it all', async () => {
    answer = accountAnswer([Buffer.from(await zstdCompress(new Uint8Array(11 * 1024 * 1024))).toString('base64'), 'base64+zstd']);
    const { code, stderr, stdout, address } = await account();
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`Error: the data of ${address}: its zstd frame declares 11534336 bytes, more than 10485760\n`);
  });

  it('says an answer that is not JSON, or an RPC error, in one line', async () => {
    answer = '<html>proxy error</html>';
    expect(await account()).toMatchObject({ code: 1, stderr: `Error: ${url}: its answer to getAccountInfo is not JSON\n` });
    answer = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid param: WrongSize' } });
    expect(await account()).toMatchObject({ code: 1, stderr: 'Error: Invalid param: WrongSize\n' });
  });
});
