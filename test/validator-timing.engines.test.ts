/**
 * Issue 51: validator timing (option `timing: 'validator'`, `--timing validator`, test-validator's
 * default). As solana-test-validator: slots open with time, a sent transaction lands a little
 * after it arrived (so web3.js confirmTransaction, which subscribes after sending, hears it land), it is
 * processed, then confirmed a slot later, then finalized once rooted 32 slots later; reads report
 * the slot of their commitment, and PubSub's slot and root notifications carry the root.
 * `start` and the in-process emulator keep the instant default (checked last).
 */
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';

const SLOT_MS = 40;

describe('validator timing', () => {
  const emulators: RelayEmulator[] = [];
  afterEach(async () => {
    for (const emulator of emulators.splice(0)) await emulator.close();
  });
  const started = async (options: { timing?: 'instant' | 'validator'; slotTimeMs?: number } = { timing: 'validator', slotTimeMs: SLOT_MS }) => {
    const emulator = await createRelayEmulator({ rpcAuth: 'off', ...options });
    emulators.push(emulator);
    return { emulator, connection: new Connection(emulator.config.rpcUrl, 'confirmed') };
  };
  const slots = async (connection: Connection) => ({
    processed: await connection.getSlot('processed'),
    confirmed: await connection.getSlot('confirmed'),
    finalized: await connection.getSlot('finalized'),
  });

  it('lags confirmed a slot and finalized 32 slots behind the processed one, in getSlot, getBlockHeight, getEpochInfo and contexts', async () => {
    const { connection } = await started();
    await expect.poll(() => connection.getSlot('processed'), { timeout: 10_000, interval: 20 }).toBeGreaterThan(40);
    const at = await slots(connection);
    // A tick may fall between two calls: each is at most a slot past the one before.
    expect(at.processed - at.confirmed).toBeGreaterThanOrEqual(0);
    expect(at.processed - at.confirmed).toBeLessThanOrEqual(2);
    expect(at.processed - at.finalized).toBeGreaterThanOrEqual(30);
    expect(at.processed - at.finalized).toBeLessThanOrEqual(34);
    const heights = { processed: await connection.getBlockHeight('processed'), finalized: await connection.getBlockHeight('finalized') };
    expect(heights.processed - heights.finalized).toBeGreaterThanOrEqual(30);
    const epoch = await connection.getEpochInfo('finalized');
    expect(epoch.absoluteSlot).toBeLessThan((await connection.getSlot('processed')) - 30);
    const balance = await connection.getBalance(Keypair.generate().publicKey, 'finalized');
    expect(balance).toBe(0);
    const { context } = await connection.getBalanceAndContext(Keypair.generate().publicKey, 'finalized');
    expect(context.slot).toBeLessThan((await connection.getSlot('processed')) - 30);
  });

  it('lands a sent transaction, then climbs processed → confirmed → finalized', async () => {
    const { emulator, connection } = await started();
    const cheat = async (method: string) => {
      const response = await fetch(emulator.config.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
      });
      expect((await response.json()).error).toBeUndefined();
    };
    const status = async (signature: string) => (await connection.getSignatureStatus(signature)).value;
    // With the clock paused (Surfpool's cheatcode) the slot it lands in stays open: processed, and only that.
    await cheat('surfnet_pauseClock');
    const sentAt = await connection.getSlot('processed');
    const signature = await connection.requestAirdrop(Keypair.generate().publicKey, LAMPORTS_PER_SOL);
    await expect.poll(async () => (await status(signature))?.confirmationStatus, { timeout: 5_000, interval: 5 }).toBe('processed');
    expect(await status(signature)).toMatchObject({ slot: sentAt, confirmations: 0, err: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await status(signature))?.confirmationStatus).toBe('processed');
    expect(await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })).toBeNull();
    // Time moves again: confirmed a slot later, finalized once rooted 32 slots later.
    await cheat('surfnet_resumeClock');
    await expect.poll(async () => (await status(signature))?.confirmationStatus, { timeout: 5_000, interval: 5 }).toBe('confirmed');
    expect((await status(signature))!.confirmations).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => (await status(signature))?.confirmationStatus, { timeout: 20_000, interval: 20 }).toBe('finalized');
    expect((await status(signature))!.confirmations).toBeNull();
    // getTransaction at finalized finds it now, and the block is there at finalized.
    expect((await connection.getTransaction(signature, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }))?.slot).toBe(sentAt);
    expect((await connection.getBlock(sentAt, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }))?.transactions).toHaveLength(1);
  });

  it('roots the slot a warp lands on, as a validator roots its --warp-slot bank: finalized stands there until time moves past it', async () => {
    const { emulator, connection } = await started();
    const { slot } = await emulator.warp({ slots: 1_000 });
    const at = await slots(connection);
    expect(at.finalized).toBeGreaterThanOrEqual(Number(slot));
    expect(at.processed - at.finalized).toBeLessThanOrEqual(2);
    // Then it lags again, 32 slots behind.
    await expect.poll(async () => (await slots(connection)).finalized - Number(slot), { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    const later = await slots(connection);
    expect(later.processed - later.finalized).toBeGreaterThanOrEqual(30);
  });

  it('answers -32004 for a block past the commitment’s slot, and getTransaction null at finalized before it is rooted', async () => {
    const { connection } = await started();
    const payer = Keypair.generate();
    const signature = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    await expect
      .poll(async () => (await connection.getSignatureStatus(signature)).value?.confirmationStatus, { timeout: 10_000, interval: 5 })
      .toBe('confirmed');
    expect(await connection.getTransaction(signature, { commitment: 'finalized', maxSupportedTransactionVersion: 0 })).toBeNull();
    expect(await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })).not.toBeNull();
    const processed = await connection.getSlot('processed');
    await expect(connection.getBlock(processed + 5, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })).rejects.toThrow(
      /-32004|Block not available/,
    );
    await expect(connection.getBlockTime(processed + 5)).rejects.toThrow(/Block not available/);
  });

  it('lets web3.js confirmTransaction hear a failed transaction land, as on a validator (its status poll finds nothing yet)', async () => {
    // At the validator's own 400 ms slot: a transaction lands 100 ms after it arrived.
    const { connection } = await started({ timing: 'validator' });
    const payer = Keypair.generate();
    const airdrop = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    // 1 lamport to a new account: InsufficientFundsForRent, landed (the fee paid).
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 }));
    const signature = await connection.sendTransaction(tx, [payer], { skipPreflight: true });
    // Not there yet when the send is answered.
    expect((await connection.getSignatureStatus(signature)).value).toBeNull();
    const answer = await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    expect(answer.value.err).toEqual({ InsufficientFundsForRent: { account_index: 1 } });
  });

  it('notifies slots with their root, roots as they move, and accounts once the write reaches the subscription’s commitment', async () => {
    const { connection } = await started();
    await expect.poll(() => connection.getSlot('processed'), { timeout: 10_000, interval: 20 }).toBeGreaterThan(36);
    const slotInfo = await new Promise<{ slot: number; root: number; parent: number }>((resolve) => {
      const id = connection.onSlotChange((info) => {
        void connection.removeSlotChangeListener(id);
        resolve(info);
      });
    });
    expect(slotInfo.parent).toBe(slotInfo.slot - 1);
    expect(slotInfo.slot - slotInfo.root).toBeGreaterThanOrEqual(31);
    const roots = await new Promise<number[]>((resolve) => {
      const got: number[] = [];
      const id = connection.onRootChange((root) => {
        got.push(root);
        if (got.length === 2) {
          void connection.removeRootChangeListener(id);
          resolve(got);
        }
      });
    });
    expect(roots[1]).toBeGreaterThan(roots[0]!);

    const owner = Keypair.generate().publicKey;
    const heard: { lamports: number; slot: number; confirmedAt: number }[] = [];
    const id = connection.onAccountChange(
      owner,
      (account, context) =>
        void connection.getSlot('confirmed').then((confirmedAt) => heard.push({ lamports: account.lamports, slot: context.slot, confirmedAt })),
      { commitment: 'confirmed' },
    );
    try {
      // The subscription is in place once web3.js has its id; then the airdrop.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const signature = await connection.requestAirdrop(owner, LAMPORTS_PER_SOL);
      await expect.poll(() => heard.length, { timeout: 10_000 }).toBe(1);
      expect(heard[0]!.lamports).toBe(LAMPORTS_PER_SOL);
      const status = (await connection.getSignatureStatus(signature)).value!;
      // Told once the transaction's slot was confirmed, not when it was processed.
      expect(heard[0]!.confirmedAt).toBeGreaterThanOrEqual(status.slot);
    } finally {
      await connection.removeAccountChangeListener(id);
    }
  });

  it('tells slotsUpdatesSubscribe each slot made, frozen with its transactions, confirmed and rooted', async () => {
    const { connection } = await started();
    await expect.poll(() => connection.getSlot('processed'), { timeout: 10_000, interval: 20 }).toBeGreaterThan(33);
    const updates: { type: string; slot: number; parent?: number; stats?: Record<string, number> }[] = [];
    const id = connection.onSlotUpdate((update) => updates.push(update as never));
    try {
      const signature = await connection.requestAirdrop(Keypair.generate().publicKey, LAMPORTS_PER_SOL);
      await expect
        .poll(async () => (await connection.getSignatureStatus(signature)).value?.confirmationStatus, { timeout: 10_000, interval: 5 })
        .toBe('confirmed');
      const landed = (await connection.getSignatureStatus(signature)).value!.slot;
      await expect.poll(() => updates.some((update) => update.type === 'frozen' && update.slot === landed), { timeout: 10_000 }).toBe(true);
      const kinds = new Set(updates.map((update) => update.type));
      expect([...kinds].sort()).toEqual(['completed', 'createdBank', 'firstShredReceived', 'frozen', 'optimisticConfirmation', 'root']);
      const frozen = updates.find((update) => update.type === 'frozen' && update.slot === landed)!;
      expect(frozen.stats).toMatchObject({ numSuccessfulTransactions: 1, numFailedTransactions: 0 });
      const created = updates.find((update) => update.type === 'createdBank')!;
      expect(created.parent).toBe(created.slot - 1);
      const roots = updates.filter((update) => update.type === 'root').map((update) => update.slot);
      expect(roots).toEqual([...roots].sort((a, b) => a - b));
      expect(Math.max(...roots)).toBeLessThanOrEqual(landed);
    } finally {
      await connection.removeSlotUpdateListener(id);
    }
  });

  it('stays instant by default: a sent transaction lands in the slot it arrived in, every commitment at the current slot', async () => {
    const { connection } = await started({});
    const before = await connection.getSlot('processed');
    const signature = await connection.requestAirdrop(Keypair.generate().publicKey, LAMPORTS_PER_SOL);
    await expect.poll(async () => (await connection.getSignatureStatus(signature)).value?.confirmationStatus).toMatch(/confirmed|finalized/);
    expect((await connection.getSignatureStatus(signature)).value?.slot).toBe(before);
    const at = await slots(connection);
    expect(at.confirmed).toBe(at.processed);
    expect(at.finalized).toBe(at.processed);
  });

  it('refuses a timing it does not know, naming both', async () => {
    await expect(createRelayEmulator({ timing: 'slow' as 'instant' })).rejects.toThrow("timing must be 'instant' or 'validator', not \"slow\"");
  });
});
