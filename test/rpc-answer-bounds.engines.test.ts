/**
 * Issue 53: getMultipleAccounts over many large accounts built an answer of gigabytes (40 accounts
 * of 10 MiB: HTTP 500 at 3 GB RSS). An answer carries at most 64 MiB of account data: past it the
 * method refuses in one JSON-RPC error, as a validator bounds what it answers; a dataSlice answers.
 */
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { rpcAt, type Rpc } from './support/json-rpc.ts';

const TEN_MIB = 10 * 1024 * 1024;

describe('answers bounded in size', () => {
  let emulator: RelayEmulator;
  let rpc: Rpc;
  const owner = Keypair.generate().publicKey;
  const addresses = Array.from({ length: 7 }, () => Keypair.generate().publicKey);

  beforeAll(async () => {
    emulator = await createRelayEmulator({ rpcAuth: false });
    rpc = rpcAt(emulator.config.rpcUrl);
    const lamports = await emulator.services.ledger.minimumBalanceForRentExemption(TEN_MIB);
    for (const address of addresses)
      await emulator.setAccount(address, { lamports, owner: owner.toBase58(), data: new Uint8Array(TEN_MIB).fill(7), executable: false });
  });
  afterAll(() => emulator.close());

  it('refuses getMultipleAccounts past 64 MiB of data, and answers the same with a dataSlice', async () => {
    const keys = addresses.map((address) => address.toBase58());
    await expect(rpc('getMultipleAccounts', [keys, { encoding: 'base64' }])).rejects.toThrow(
      `Too much account data requested: ${7 * TEN_MIB} bytes; max ${64 * 1024 * 1024} (ask for fewer accounts, or a dataSlice)`,
    );
    const sliced = await rpc('getMultipleAccounts', [keys, { encoding: 'base64', dataSlice: { offset: 0, length: 4 } }]);
    expect(sliced.value.map((account: { data: [string, string] }) => account.data)).toEqual(
      keys.map(() => [Buffer.from([7, 7, 7, 7]).toString('base64'), 'base64']),
    );
    // One of them (10 MiB) is within the bound.
    expect((await rpc('getMultipleAccounts', [keys.slice(0, 1), { encoding: 'base64' }])).value).toHaveLength(1);
  });

  it('aborts getProgramAccounts past it as Agave aborts a scan (-32012), and answers with a filter or a slice', async () => {
    await expect(rpc('getProgramAccounts', [owner.toBase58(), { encoding: 'base64' }])).rejects.toMatchObject({
      code: -32012,
      message: expect.stringMatching(/^getProgramAccounts: scan aborted: Exceeded max scan size: 73400320 bytes of account data; max 67108864/),
    });
    const sliced = await rpc('getProgramAccounts', [owner.toBase58(), { encoding: 'base64', dataSlice: { offset: 0, length: 0 } }]);
    expect(sliced).toHaveLength(7);
  });
});
