/**
 * Issue 43, item 3: Surfpool's cheatcodes, called as its docs and `@solana/surfpool`'s
 * createSurfnetCheatcodesRpc call them (positional params, camelCase fields, hex data), answered in
 * its shapes, done by the controls, and guarded as the controls are. docs/rpc.md lists them and
 * what is not served; this test holds the page's table to the methods answered.
 */
import { readFileSync } from 'node:fs';
import { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { associatedTokenAddress } from '../src/domain/ledger/spl-token.ts';
import { SURFNET_METHODS, SURFNET_UNSERVED } from '../src/interfaces/controls/surfnet-cheatcodes.ts';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { startServer, type RunningServer } from '../src/adapters/server/index.ts';
import { loadFixtures } from '../src/domain/fixtures/load-fixtures.ts';

const fixtures = loadFixtures();
const USDC = new PublicKey(fixtures.mints.find((mint) => mint.symbol === 'USDC')!.address);

describe('surfnet_ cheatcodes', () => {
  let emulator: RelayEmulator;
  let call: (method: string, params?: unknown, headers?: Record<string, string>) => Promise<any>;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
    call = async (method, params = [], headers = {}) =>
      (
        await fetch(emulator.config.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
      ).json();
  });
  afterAll(() => emulator.close());

  it('surfnet_setAccount writes the fields given, data in hex, as the docs’ example', async () => {
    const address = Keypair.generate().publicKey.toBase58();
    const owner = Keypair.generate().publicKey.toBase58();
    const answer = await call('surfnet_setAccount', [address, { lamports: 1000, data: '0102ff', owner }]);
    expect(answer.result).toEqual({ context: { slot: expect.any(Number), apiVersion: expect.any(String) }, value: null });
    expect(await emulator.getAccount(address)).toEqual({ lamports: 1000n, owner, data: new Uint8Array([1, 2, 255]), executable: false });
    // Only lamports: the rest kept.
    await call('surfnet_setAccount', [address, { lamports: 5000 }]);
    expect(await emulator.getAccount(address)).toMatchObject({ lamports: 5000n, owner });
    // Surfpool's words, the hex crate's error after them.
    expect((await call('surfnet_setAccount', [address, { data: 'zz' }])).error).toEqual({
      code: -32602,
      message: "Invalid hex data provided: Invalid character 'z' at position 0",
    });
    expect((await call('surfnet_setAccount', [address, { data: '01f' }])).error.message).toBe('Invalid hex data provided: Odd number of digits');
    expect((await call('surfnet_setAccount', [address, { data: '0é0' }])).error.message).toBe("Invalid hex data provided: Invalid character 'Ã' at position 1");
    expect((await call('surfnet_setAccount', [address, { data: '0\n' }])).error.message).toBe(
      "Invalid hex data provided: Invalid character '\\n' at position 1",
    );
  });

  it('surfnet_setTokenAccount writes the owner’s associated token account, with "null" clearing a field', async () => {
    const owner = Keypair.generate().publicKey;
    const delegate = Keypair.generate().publicKey.toBase58();
    const answer = await call('surfnet_setTokenAccount', [
      owner.toBase58(),
      USDC.toBase58(),
      { amount: 1000, state: 'initialized', delegate, delegatedAmount: 10 },
      null,
    ]);
    expect(answer.result.value).toBeNull();
    const ata = associatedTokenAddress(USDC, owner).toBase58();
    const rpc = await call('getTokenAccountBalance', [ata]);
    expect(rpc.result.value.amount).toBe('1000');
    const parsed = await call('getAccountInfo', [ata, { encoding: 'jsonParsed' }]);
    expect(parsed.result.value.data.parsed.info).toMatchObject({ owner: owner.toBase58(), mint: USDC.toBase58(), delegate, state: 'initialized' });
    expect(parsed.result.value.lamports).toBe(2_039_280);
    await call('surfnet_setTokenAccount', [owner.toBase58(), USDC.toBase58(), { delegate: 'null', state: 'frozen' }]);
    const after = await call('getAccountInfo', [ata, { encoding: 'jsonParsed' }]);
    expect(after.result.value.data.parsed.info.delegate).toBeUndefined();
    expect(after.result.value.data.parsed.info.state).toBe('frozen');
  });

  it('surfnet_timeTravel goes forward to a slot, an epoch or a time, and answers EpochInfo in camelCase', async () => {
    const slot = (await call('getSlot')).result as number;
    const bySlot = await call('surfnet_timeTravel', [{ absoluteSlot: slot + 100 }]);
    expect(bySlot.result).toEqual({
      epoch: 0,
      slotIndex: slot + 100,
      slotsInEpoch: 432_000,
      absoluteSlot: slot + 100,
      blockHeight: expect.any(Number),
      transactionCount: expect.any(Number),
    });
    expect((await call('surfnet_timeTravel', [{ absoluteEpoch: 1 }])).result).toMatchObject({ epoch: 1, absoluteSlot: 432_000 });
    const target = Date.UTC(2030, 0, 1);
    await call('surfnet_timeTravel', [{ absoluteTimestamp: target }]);
    const time = (await call('getBlockTime', [(await call('getSlot')).result])).result;
    expect(time).toBe(target / 1000);
    expect((await call('surfnet_timeTravel', [{ absoluteSlot: 1 }])).error.message).toMatch(/^Cannot travel to past slot: target=1, current=\d+$/);
  });

  it('surfnet_resetAccount puts back what genesis held, surfnet_resetNetwork all of it; getSurfnetInfo lists no runbooks', async () => {
    const alice = fixtures.wallets[0]!.publicKey;
    const before = await emulator.getAccount(alice);
    await call('surfnet_setAccount', [alice, { lamports: 7 }]);
    await call('surfnet_resetAccount', [alice]);
    expect(await emulator.getAccount(alice)).toEqual(before);
    const stray = Keypair.generate().publicKey.toBase58();
    await call('surfnet_setAccount', [stray, { lamports: 9 }]);
    expect((await call('surfnet_resetNetwork', [])).result.value).toBeNull();
    expect(await emulator.getAccount(stray)).toBeNull();
    // Anchor 1.x sends it with "params": null.
    expect((await call('surfnet_getSurfnetInfo', null)).result.value).toEqual({ runbookExecutions: [] });
    expect((await call('surfnet_pauseClock')).result).toMatchObject({ absoluteSlot: expect.any(Number) });
    expect((await call('surfnet_resumeClock')).result).toMatchObject({ absoluteSlot: expect.any(Number) });
  });

  it('is refused to a web page of another origin, as the controls are', async () => {
    const stray = Keypair.generate().publicKey.toBase58();
    const answer = await call('surfnet_setAccount', [stray, { lamports: 1 }], {
      Origin: 'https://evil.example',
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(answer.error).toMatchObject({ code: -32600, message: expect.stringMatching(/^surfnet_ cheatcodes are test controls: /) });
    expect(await emulator.getAccount(stray)).toBeNull();
  });

  it('is listed in docs/rpc.md, served and not: together, Surfpool 1.5’s 26', async () => {
    const page = readFileSync(new URL('../docs/rpc.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf("## Surfpool's cheatcodes"));
    const listed = [...section.matchAll(/^\| (surfnet_\w+)(?:, (surfnet_\w+))? \|/gm)].flatMap((match) => match.slice(1).filter(Boolean));
    expect(listed.sort()).toEqual([...SURFNET_METHODS].sort());
    const unserved = [...section.slice(section.indexOf('Not served (-32601)')).matchAll(/`(surfnet_\w+)`/g)].map((match) => match[1]);
    expect(unserved.sort()).toEqual(Object.keys(SURFNET_UNSERVED).sort());
    expect(new Set([...listed, ...unserved]).size).toBe(26);
    for (const method of unserved) expect((await call(method!, [])).error.code).toBe(-32601);
    // And each listed is served: whatever its params, never method-not-found.
    for (const method of SURFNET_METHODS) expect((await call(method, []))?.error?.code, method).not.toBe(-32601);
  });
});

describe('surfnet_pauseClock and surfnet_resumeClock with wall-clock slots (--slot-time)', () => {
  it('stop the slots while paused, and start them again', async () => {
    const emulator = await createRelayEmulator({ slotTimeMs: 50 });
    try {
      const call = async (method: string) =>
        (
          (await (
            await fetch(emulator.config.rpcUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
            })
          ).json()) as any
        ).result;
      // The clock runs: slots move on their own.
      const first = (await call('getSlot')) as number;
      await expect.poll(() => call('getSlot')).toBeGreaterThan(first);
      const paused = (await call('surfnet_pauseClock')).absoluteSlot as number;
      // Eight slot times later, the same slot (a tick already under way may land once).
      await new Promise((resolve) => setTimeout(resolve, 400));
      const still = (await call('getSlot')) as number;
      expect(still - paused).toBeLessThanOrEqual(1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await call('getSlot')).toBe(still);
      await call('surfnet_resumeClock');
      await expect.poll(() => call('getSlot')).toBeGreaterThan(still);
    } finally {
      await emulator.close();
    }
  });
});

describe('surfnet_ cheatcodes on a non-loopback bind', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, host: '0.0.0.0', adminToken: 'secret', emulator: { rpcAuth: false } });
  });
  afterAll(() => server.close());

  it('need X-Admin-Token, as the controls do', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'surfnet_resetNetwork', params: [] });
    const headers = { 'content-type': 'application/json' };
    const without = (await (await fetch(`http://127.0.0.1:${server.port}/`, { method: 'POST', headers, body })).json()) as any;
    expect(without.error.message).toMatch(/send X-Admin-Token/);
    const withToken = (await (
      await fetch(`http://127.0.0.1:${server.port}/`, { method: 'POST', headers: { ...headers, 'X-Admin-Token': 'secret' }, body })
    ).json()) as any;
    expect(withToken.result.value).toBeNull();
  });

  it('answer those that only read without one: Anchor 1.x polls surfnet_getSurfnetInfo with "params": null and no token', async () => {
    const headers = { 'content-type': 'application/json' };
    const ask = async (method: string, params: unknown) =>
      (await (
        await fetch(`http://127.0.0.1:${server.port}/`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) })
      ).json()) as any;
    expect(await ask('surfnet_getSurfnetInfo', null)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { context: { slot: expect.any(Number), apiVersion: expect.any(String) }, value: { runbookExecutions: [] } },
    });
    expect((await ask('surfnet_getLocalSignatures', [1])).result.value).toEqual(expect.any(Array));
    // A write without the token is refused, and writes nothing.
    const stray = Keypair.generate().publicKey.toBase58();
    expect((await ask('surfnet_setAccount', [stray, { lamports: 5 }])).error.message).toMatch(/send X-Admin-Token/);
    expect(await server.emulator.getAccount(stray)).toBeNull();
  });
});
