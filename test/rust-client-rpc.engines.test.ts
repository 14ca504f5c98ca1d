/**
 * Issue 42, item 1: the JSON-RPC as Rust's `solana-client` uses it (the Solana CLI, the Anchor CLI,
 * every Rust service). It sends `"params": null` for every method without parameters, asks
 * `getVersion` first, and reads accounts as `base64+zstd`. The emulator answered -32600 to the
 * first and refused the second; `anchor account` failed with "cluster version query failed".
 */
import { decompress } from 'fzstd';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';

let emulator: RelayEmulator;
let rpcUrl: string;
beforeAll(async () => {
  emulator = await createRelayEmulator();
  rpcUrl = emulator.config.rpcUrl;
});
afterAll(() => emulator.close());

async function post(body: unknown): Promise<any> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return response.json();
}

const fixtures = loadFixtures();
const ALICE = () => fixtures.wallets[0]!.publicKey;
const USDC = fixtures.mints.find((mint) => mint.symbol === 'USDC')!.address;

describe('params as jsonrpc-core reads them', () => {
  it('takes "params": null and a missing params as none, for every method without parameters, in a batch too', async () => {
    const methods = ['getVersion', 'getHealth', 'getIdentity', 'getGenesisHash', 'getEpochSchedule', 'getSlot', 'getLatestBlockhash', 'getEpochInfo'];
    const batch = methods.flatMap((method, index) => [
      { jsonrpc: '2.0', id: 2 * index, method, params: null },
      { jsonrpc: '2.0', id: 2 * index + 1, method },
    ]);
    const answers = (await post(batch)) as { id: number; result?: unknown; error?: unknown }[];
    expect(answers).toHaveLength(batch.length);
    for (const answer of answers) expect(answer.error, JSON.stringify(answer)).toBeUndefined();
    const version = answers.find((answer) => answer.id === 0)!.result;
    expect(version).toEqual({ 'feature-set': expect.any(Number), 'solana-core': expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    expect(answers.find((answer) => answer.id === 2)!.result).toBe('ok');
    expect(answers.find((answer) => answer.id === 8)!.result).toMatchObject({ slotsPerEpoch: expect.any(Number), warmup: expect.any(Boolean) });
  });

  it('still refuses params that are a string, a number or a boolean', async () => {
    for (const params of ['x', 1, true]) {
      expect(await post({ jsonrpc: '2.0', id: 1, method: 'getSlot', params })).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid request' },
        id: null,
      });
    }
  });

  it('answers a method that needs params, given null, as one given none', async () => {
    const answer = await post({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: null });
    expect(answer.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid params: invalid length 0/) });
  });
});

describe('base64+zstd', () => {
  const unzstd = ([text, encoding]: [string, string]) => {
    expect(encoding).toBe('base64+zstd');
    const frame = Buffer.from(text, 'base64');
    // A real zstd frame: the magic number, then what fzstd (another decoder) reads back.
    expect(frame.readUInt32LE(0)).toBe(0xfd2fb528);
    return Buffer.from(decompress(frame));
  };

  it('is one zstd frame of the data for getAccountInfo, getMultipleAccounts and getProgramAccounts, dataSlice included', async () => {
    const token = (await emulator.faucet({ address: ALICE(), mint: USDC, amount: 1 })).tokenAccount!;
    const plain = await post({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [token, { encoding: 'base64' }] });
    const bytes = Buffer.from(plain.result.value.data[0], 'base64');
    expect(bytes.length).toBe(165);
    const info = await post({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [token, { encoding: 'base64+zstd' }] });
    expect(unzstd(info.result.value.data)).toEqual(bytes);
    expect(info.result.value.space).toBe(165);
    const sliced = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'getAccountInfo',
      params: [token, { encoding: 'base64+zstd', dataSlice: { offset: 32, length: 32 } }],
    });
    expect(unzstd(sliced.result.value.data)).toEqual(bytes.subarray(32, 64));
    const many = await post({ jsonrpc: '2.0', id: 1, method: 'getMultipleAccounts', params: [[token, emulator.config.feePayer], { encoding: 'base64+zstd' }] });
    expect(unzstd(many.result.value[0].data)).toEqual(bytes);
    expect(unzstd(many.result.value[1].data)).toEqual(Buffer.alloc(0));
    const owned = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'getProgramAccounts',
      params: ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', { encoding: 'base64+zstd', filters: [{ memcmp: { offset: 32, bytes: ALICE() } }] }],
    });
    const found = (owned.result as { pubkey: string; account: { data: [string, string] } }[]).find((entry) => entry.pubkey === token)!;
    expect(unzstd(found.account.data)).toEqual(bytes);
  });

  it('notifies accountSubscribe in base64+zstd, with the account’s bytes', async () => {
    const socket = new WebSocket(emulator.config.pubsubUrl!);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const messages: any[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    // A token account: 165 bytes that change with the amount (an empty account's frame would hold nothing to check).
    const token = (await emulator.faucet({ address: ALICE(), mint: USDC, amount: 1 })).tokenAccount!;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'accountSubscribe', params: [token, { encoding: 'base64+zstd' }] }));
    await expect.poll(() => messages.find((message) => message.id === 1)).toBeTruthy();
    await emulator.faucet({ address: ALICE(), mint: USDC, amount: 2 });
    await expect.poll(() => messages.find((message) => message.method === 'accountNotification'), { timeout: 10_000 }).toBeTruthy();
    const notification = messages.find((message) => message.method === 'accountNotification');
    const plain = await post({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [token, { encoding: 'base64' }] });
    const bytes = Buffer.from(plain.result.value.data[0], 'base64');
    expect(bytes.length).toBe(165);
    expect(unzstd(notification.params.result.value.data)).toEqual(bytes);
    socket.close();
  });
});
