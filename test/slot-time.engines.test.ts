/**
 * Issue 34, item 6: wall-clock mode (option `slotTimeMs`, `--slot-time MS`). An idle emulator in
 * it makes slots by itself, as a validator does every ~400 ms: slot, block height, SlotHashes,
 * blockhash expiry and PubSub slot notifications follow; without it, nothing moves while idle.
 */
import { Connection, Keypair } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { slotHashes } from './support/slot-hashes.ts';

describe('wall-clock mode: slots that move by themselves', () => {
  const emulators: RelayEmulator[] = [];
  afterEach(async () => {
    for (const emulator of emulators.splice(0)) await emulator.close();
  });
  const started = async (slotTimeMs?: number) => {
    const emulator = await createRelayEmulator(slotTimeMs === undefined ? {} : { slotTimeMs });
    emulators.push(emulator);
    return { emulator, connection: new Connection(emulator.config.rpcUrl, 'processed') };
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('is off by default: an idle emulator’s slot and block height stand still', async () => {
    // (Not its latest blockhash: bankrun's moves with wall time, as the engine table in the README says.)
    const { connection } = await started();
    const before = { slot: await connection.getSlot(), height: await connection.getBlockHeight() };
    await pause(300);
    expect({ slot: await connection.getSlot(), height: await connection.getBlockHeight() }).toEqual(before);
  });

  it('makes a slot every slotTimeMs while idle: slot, block height and SlotHashes move, and slotSubscribe fires', async () => {
    const { connection } = await started(20);
    const seen: number[] = [];
    const subscription = connection.onSlotChange(({ slot }) => seen.push(slot));
    try {
      const slot = await connection.getSlot();
      const height = await connection.getBlockHeight();
      await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(new Set(seen).size).toBe(seen.length);
      expect(await connection.getSlot()).toBeGreaterThan(slot);
      expect(await connection.getBlockHeight()).toBeGreaterThan(height);
      const newest = (await slotHashes(connection))[0]!;
      expect(newest).toBeGreaterThan(BigInt(slot));
    } finally {
      await connection.removeSlotChangeListener(subscription);
    }
  });

  it('expires a blockhash once 150 blocks have passed, with no transaction sent', async () => {
    const { connection } = await started(10);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(true);
    await expect.poll(() => connection.getBlockHeight(), { timeout: 20_000, interval: 100 }).toBeGreaterThan(lastValidBlockHeight);
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(false);
  }, 30_000);

  it('takes writes between ticks, and stops ticking at close', async () => {
    const { emulator, connection } = await started(20);
    const wallet = Keypair.generate().publicKey;
    await emulator.faucet({ address: wallet, lamports: 1_000_000n });
    expect(await connection.getBalance(wallet)).toBe(1_000_000);
    await emulator.close();
    emulators.splice(emulators.indexOf(emulator), 1);
    const slot = emulator.clock().slot;
    await pause(100);
    expect(emulator.clock().slot).toBe(slot);
  });

  it('refuses a slot time under 10 ms or not whole, in one line', async () => {
    await expect(createRelayEmulator({ slotTimeMs: 5 })).rejects.toThrow('slotTimeMs must be a whole number of milliseconds, at least 10, not 5');
    await expect(createRelayEmulator({ slotTimeMs: 12.5 })).rejects.toThrow('not 12.5');
  });
});
