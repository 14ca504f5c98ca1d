import { createAssociatedTokenAccountInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { genesisAccounts, keypairOf, loadFixtures } from '../fixtures/load-fixtures.ts';
import { createLiteSvmEngine } from './litesvm-engine.ts';
import { errorJson } from './litesvm-execution.ts';
import { Ledger, type LedgerTransaction } from './ledger.ts';

const fixtures = loadFixtures();
const feePayer = keypairOf(fixtures.relay.feePayer);
const mint = new PublicKey(fixtures.mints[0]!.address);

/** Writes an account, creates an ATA and makes a transfer: every kind of write a bank sees. */
async function scenario(): Promise<{ results: LedgerTransaction[]; blockhashes: string[]; stray: PublicKey }> {
  const ledger = await Ledger.create({
    engine: createLiteSvmEngine,
    genesis: genesisAccounts(fixtures),
    genesisTime: new Date('2026-01-01T00:00:00Z'),
    slotMs: 400,
    reservoir: new PublicKey(fixtures.relay.faucet.publicKey),
  });
  const owner = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey;
  const stray = Keypair.fromSeed(new Uint8Array(32).fill(10)).publicKey;
  await ledger.setAccount(stray, { lamports: 5_000_000n, owner: SystemProgram.programId, data: new Uint8Array([1, 2, 3]), executable: false });
  const blockhashes: string[] = [];
  const results: LedgerTransaction[] = [];
  for (const instructions of [
    [createAssociatedTokenAccountInstruction(feePayer.publicKey, getAssociatedTokenAddressSync(mint, owner), owner, mint)],
    [SystemProgram.transfer({ fromPubkey: feePayer.publicKey, toPubkey: stray, lamports: 1_000 })],
  ]) {
    const { blockhash } = await ledger.latestBlockhash();
    blockhashes.push(blockhash);
    const tx = new VersionedTransaction(
      new TransactionMessage({ payerKey: feePayer.publicKey, recentBlockhash: blockhash, instructions }).compileToLegacyMessage(),
    );
    tx.sign([feePayer]);
    results.push(await ledger.process(tx));
  }
  await ledger.close();
  return { results, blockhashes, stray };
}

describe('the LiteSVM engine', () => {
  it('behaves the same on a reused bank as on a new one: accounts, blockhashes, results', async () => {
    const first = await scenario();
    expect(first.results.map((result) => result.err)).toEqual([null, null]);
    // The bank the first run closed is reset and reused here.
    const second = await scenario();
    expect(second.blockhashes).toEqual(first.blockhashes);
    expect(second.results).toEqual(first.results);
    // The account written in the first run was gone before the second wrote it again.
    expect(second.results[1]!.preBalances[1]).toBe(5_000_000n);
  });

  it('hands out a new blockhash per slot, the same from run to run', async () => {
    const ledger = await Ledger.create({ engine: createLiteSvmEngine, genesis: [], genesisTime: new Date('2026-01-01T00:00:00Z'), slotMs: 400 });
    const seen = new Set<string>();
    for (let slot = 0; slot < 5; slot += 1) {
      seen.add((await ledger.latestBlockhash()).blockhash);
      await ledger.warp({ slots: 1 });
    }
    expect(seen.size).toBe(5);
    await ledger.close();
  });

  it('turns LiteSVM errors into the RPC JSON form', () => {
    expect(errorJson(4)).toBe('InsufficientFundsForFee');
    expect(errorJson(99 as never)).toEqual({ Unknown: 'TransactionError 99' });
  });
});
