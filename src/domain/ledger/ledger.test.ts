import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction, type PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, ENGINE_NAMES } from './engines.ts';
import { Ledger } from './ledger.ts';

const payer = Keypair.fromSeed(new Uint8Array(32).fill(1));
const SYSTEM = SystemProgram.programId;

function transfer(blockhash: string, to: PublicKey, lamports: number): VersionedTransaction {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports })],
  }).compileToLegacyMessage();
  const tx = new VersionedTransaction(message);
  tx.sign([payer]);
  return tx;
}

describe.each(ENGINE_NAMES)('Ledger over %s', (engine) => {
  let ledger: Ledger;
  beforeAll(async () => {
    ledger = await Ledger.create({
      engine: ENGINES[engine],
      genesis: [{ address: payer.publicKey, account: { lamports: 10_000_000_000n, owner: SYSTEM, data: new Uint8Array(), executable: false } }],
      genesisTime: new Date('2026-01-01T00:00:00Z'),
      slotMs: 400,
    });
  });
  afterAll(() => ledger.close());

  it('lands transactions in the current slot, with block times derived from the seeded clock', async () => {
    const to = Keypair.generate().publicKey;
    const first = await ledger.process(transfer((await ledger.latestBlockhash()).blockhash, to, 1_000_000));
    const second = await ledger.process(transfer((await ledger.latestBlockhash()).blockhash, to, 2_000_000));
    expect(first.err).toBeNull();
    expect(second.slot).toBe(first.slot);
    expect(ledger.clock().slot).toBe(first.slot);
    expect(second.blockTime).toBe(Math.floor(Date.parse('2026-01-01T00:00:00Z') / 1000) + Math.floor(Number(second.slot) * 0.4));
    expect(second.preBalances[1]).toBe(1_000_000n);
    expect(second.postBalances[1]).toBe(3_000_000n);
    expect(second.fee).toBe(5000n);
    expect(second.postBalances[0]).toBe(second.preBalances[0]! - 2_000_000n - 5000n);
  });

  it('keeps a blockhash valid across wall time, and until it is 150 blocks old, not 151', async () => {
    const issuedAt = ledger.clock().blockHeight;
    const { blockhash, lastValidBlockHeight } = await ledger.latestBlockhash();
    expect(lastValidBlockHeight).toBe(issuedAt + 150n);
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // bankrun alone would have expired it
    const landed = await ledger.process(transfer(blockhash, Keypair.generate().publicKey, 1_000_000));
    expect(landed.err).toBeNull();
    await ledger.warp({ slots: Number(issuedAt + 150n - ledger.clock().blockHeight) });
    expect(ledger.isBlockhashValid(blockhash)).toBe(true);
    await ledger.warp({ slots: 1 });
    expect(ledger.clock().blockHeight - issuedAt).toBe(151n);
    expect(ledger.isBlockhashValid(blockhash)).toBe(false);
  });

  it('expires blockhashes on demand and reports failures as values', async () => {
    const old = (await ledger.latestBlockhash()).blockhash;
    const fresh = await ledger.expireBlockhashes();
    expect(ledger.isBlockhashValid(old)).toBe(false);
    expect(fresh.blockhash).not.toBe(old);
    const failed = await ledger.process(transfer(fresh.blockhash, Keypair.generate().publicKey, 100_000_000_000));
    expect(failed.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(failed.logs.join('\n')).toContain('insufficient lamports');
  });

  it('caches reads until the next write, and never serves a stale account', async () => {
    const to = Keypair.generate().publicKey;
    const first = ledger.getAccount(payer.publicKey);
    expect(ledger.getAccount(payer.publicKey)).toBe(first); // one engine round trip for concurrent readers
    const before = (await first)!.lamports;
    await ledger.process(transfer((await ledger.latestBlockhash()).blockhash, to, 1_000_000));
    expect((await ledger.getAccount(payer.publicKey))!.lamports).toBe(before - 1_000_000n - 5000n);
    expect((await ledger.getAccount(to))!.lamports).toBe(1_000_000n);
    // A write with the same lamports needs no reservoir; the next read must see its data.
    await ledger.setAccount(to, { lamports: 1_000_000n, owner: SYSTEM, data: new Uint8Array([1, 2, 3]), executable: false });
    expect((await ledger.getAccount(to))!.data).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('sets the clock', async () => {
    const clock = await ledger.warp({ unixTimestamp: 2_000_000_000n });
    expect(clock.unixTimestamp).toBe(2_000_000_000n);
  });
});

describe('Ledger slots: several transactions per slot', () => {
  const genesis = [{ address: payer.publicKey, account: { lamports: 10_000_000_000n, owner: SYSTEM, data: new Uint8Array(), executable: false } }];
  const create = (transactionsPerSlot?: number) =>
    Ledger.create({
      engine: ENGINES.bankrun,
      genesis,
      genesisTime: new Date('2026-01-01T00:00:00Z'),
      slotMs: 400,
      ...(transactionsPerSlot === undefined ? {} : { transactionsPerSlot }),
    });
  let ledger: Ledger;
  beforeAll(async () => {
    ledger = await create(3);
  });
  afterAll(() => ledger.close());
  const send = async (lamports: number) => ledger.process(transfer((await ledger.latestBlockhash()).blockhash, Keypair.generate().publicKey, lamports));

  it('fills a slot with transactionsPerSlot transactions, then opens the next one (one block later)', async () => {
    const start = ledger.clock();
    const landed = [];
    for (let index = 0; index < 7; index += 1) landed.push(await send(1_000_000 + index));
    expect(landed.map((tx) => tx.slot - start.slot)).toEqual([0n, 0n, 0n, 1n, 1n, 1n, 2n]);
    expect(ledger.clock().blockHeight - start.blockHeight).toBe(2n);
    // One slot, one time: every transaction of a slot has its block time.
    expect(new Set(landed.slice(0, 3).map((tx) => tx.blockTime)).size).toBe(1);
    expect(landed[3]!.blockTime).toBe(ledger.blockTime(landed[3]!.slot));
  });

  it('counts a blockhash’s 150 blocks in slots, never in transactions', async () => {
    const { blockhash, lastValidBlockHeight } = await ledger.latestBlockhash();
    for (let index = 0; index < 12; index += 1) await send(2_000_000 + index);
    expect(ledger.isBlockhashValid(blockhash)).toBe(true);
    await ledger.warp({ slots: Number(lastValidBlockHeight - ledger.clock().blockHeight) });
    expect(ledger.isBlockhashValid(blockhash)).toBe(true);
    await ledger.warp({ slots: 1 });
    expect(ledger.isBlockhashValid(blockhash)).toBe(false);
  });

  it('opens an empty slot on a warp or an expiry: the next transaction lands in it', async () => {
    await send(3_000_000);
    const warped = await ledger.warp({ slots: 5 });
    expect((await send(3_000_001)).slot).toBe(warped.slot);
    const { blockhash } = await ledger.expireBlockhashes();
    const expired = ledger.clock().slot;
    const landed = await ledger.process(transfer(blockhash, Keypair.generate().publicKey, 3_000_002));
    expect(landed.slot).toBe(expired);
    expect(landed.slot).toBe(warped.slot + 1n);
  });

  it('runs two transactions that differ only by their blockhash in one slot', async () => {
    const to = Keypair.generate().publicKey;
    // bankrun rebinds both to its current blockhash, which ticks every few ms: processed back to
    // back, a pair mostly becomes one message. Eight pairs make a miss of every collision unlikely.
    const pairs = 8;
    for (let pair = 0; pair < pairs; pair += 1) {
      const first = (await ledger.latestBlockhash()).blockhash;
      let second = first;
      while (second === first) second = (await ledger.latestBlockhash()).blockhash;
      const [a, b] = [transfer(first, to, 1_000_000), transfer(second, to, 1_000_000)];
      const landed = [await ledger.process(a), await ledger.process(b)];
      expect(
        landed.map((tx) => tx.err),
        `pair ${pair}`,
      ).toEqual([null, null]);
    }
    expect((await ledger.getAccount(to))!.lamports).toBe(BigInt(pairs) * 2_000_000n);
    // Replays are not the ledger's to refuse (its callers' records do: test/reset-forgets-transactions.engines.test.ts).
  });

  it('gives every transaction its own slot with transactionsPerSlot 1, and refuses less', async () => {
    const single = await create(1);
    try {
      const first = await single.process(transfer((await single.latestBlockhash()).blockhash, Keypair.generate().publicKey, 1_000_000));
      const second = await single.process(transfer((await single.latestBlockhash()).blockhash, Keypair.generate().publicKey, 1_000_001));
      expect(second.slot).toBe(first.slot + 1n);
    } finally {
      await single.close();
    }
    for (const invalid of [0, -1, 1.5, Number.NaN]) await expect(create(invalid)).rejects.toThrow(RangeError);
  });
});
