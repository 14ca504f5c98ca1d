/**
 * The same scenario on both engines: what the Ledger reports must agree wherever Solana's meaning
 * is the same (slots, block times, blockhash validity, balances of ordinary accounts, token
 * balances, error values), and each engine's fee must be what its runtime really charged.
 */
import { createAssociatedTokenAccountInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { ComputeBudgetProgram, Keypair, PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genesisAccounts, keypairOf, loadFixtures } from '../fixtures/load-fixtures.ts';
import { PROGRAMS } from '../relay/programs.ts';
import { ENGINES, ENGINE_NAMES, type EngineName } from './engines.ts';
import { Ledger, type LedgerTransaction } from './ledger.ts';

const fixtures = loadFixtures();
const feePayer = keypairOf(fixtures.relay.feePayer);
const alice = keypairOf({ publicKey: fixtures.wallets[0]!.publicKey, secretKey: fixtures.wallets[0]!.secretKey! });
const usdc = fixtures.mints.find((mint) => mint.symbol === 'USDC')!;
const mint = new PublicKey(usdc.address);
const bob = Keypair.fromSeed(new Uint8Array(32).fill(7)).publicKey;
const aliceAta = getAssociatedTokenAddressSync(mint, alice.publicKey, true);
const bobAta = getAssociatedTokenAddressSync(mint, bob);
const TOKEN_ACCOUNT_RENT = 2_039_280n;

function signed(blockhash: string, instructions: TransactionInstruction[]): VersionedTransaction {
  const message = new TransactionMessage({ payerKey: feePayer.publicKey, recentBlockhash: blockhash, instructions }).compileToLegacyMessage();
  const tx = new VersionedTransaction(message);
  tx.sign([feePayer, alice]);
  return tx;
}

const memo = (text: string) =>
  new TransactionInstruction({ programId: PROGRAMS.memo, keys: [{ pubkey: alice.publicKey, isSigner: true, isWritable: false }], data: Buffer.from(text) });

interface Run {
  ledger: Ledger;
  create: LedgerTransaction;
  transfer: LedgerTransaction;
  failed: LedgerTransaction;
  priced: LedgerTransaction;
  expired: boolean;
  lastValid: bigint;
  heldValid: boolean;
}

async function scenario(engine: EngineName): Promise<Run> {
  const ledger = await Ledger.create({
    engine: ENGINES[engine],
    genesis: genesisAccounts(fixtures),
    genesisTime: new Date('2026-01-01T00:00:00Z'),
    slotMs: 400,
  });
  const limit = ComputeBudgetProgram.setComputeUnitLimit({ units: 100_000 });
  const price = ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10_000 });
  const held = await ledger.latestBlockhash();
  const create = await ledger.process(
    signed(held.blockhash, [
      limit,
      price,
      createAssociatedTokenAccountInstruction(feePayer.publicKey, bobAta, bob, mint),
      createTransferCheckedInstruction(aliceAta, mint, bobAta, alice.publicKey, 1_500_000n, usdc.decimals),
    ]),
  );
  const tx = signed((await ledger.latestBlockhash()).blockhash, [
    createTransferCheckedInstruction(aliceAta, mint, bobAta, alice.publicKey, 250_000n, usdc.decimals),
    memo('parity'),
  ]);
  const transfer = await ledger.process(tx, undefined, tx.serialize());
  const failed = await ledger.process(
    signed((await ledger.latestBlockhash()).blockhash, [createTransferCheckedInstruction(aliceAta, mint, bobAta, alice.publicKey, 10n ** 18n, usdc.decimals)]),
  );
  // No limit set: each runtime reserves units its own way, and the fee must follow.
  const priced = await ledger.process(
    signed((await ledger.latestBlockhash()).blockhash, [ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000_000 }), memo('priced')]),
  );
  await ledger.warp({ slots: Number(held.lastValidBlockHeight - ledger.clock().blockHeight) });
  const heldValid = ledger.isBlockhashValid(held.blockhash);
  await ledger.warp({ slots: 1 });
  return { ledger, create, transfer, failed, priced, expired: !ledger.isBlockhashValid(held.blockhash), lastValid: held.lastValidBlockHeight, heldValid };
}

/** Balances of the accounts that are not programs (program accounts are laid out differently per engine). */
function ordinary(result: LedgerTransaction, balances: bigint[]): Record<string, bigint> {
  const programs = new Set(Object.values(PROGRAMS).map((key) => key.toBase58()));
  return Object.fromEntries(result.accountKeys.flatMap((key, index) => (programs.has(key) ? [] : [[key, balances[index]!]])));
}

describe('the bankrun and LiteSVM engines', () => {
  const runs = {} as Record<EngineName, Run>;
  beforeAll(async () => {
    for (const engine of ENGINE_NAMES) runs[engine] = await scenario(engine);
  });
  afterAll(async () => {
    for (const run of Object.values(runs)) await run.ledger.close();
  });

  it('land the same transactions in the same slots at the same block times', () => {
    const [a, b] = ENGINE_NAMES.map((engine) => runs[engine]);
    for (const key of ['create', 'transfer', 'failed', 'priced'] as const) {
      expect(b![key].slot).toBe(a![key].slot);
      expect(b![key].blockTime).toBe(a![key].blockTime);
      expect(b![key].err).toEqual(a![key].err);
    }
    expect(b!.ledger.clock()).toEqual(a!.ledger.clock());
    expect(a!.failed.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
  });

  it('hold the same wrapped-SOL mint', async () => {
    const [a, b] = await Promise.all(
      ENGINE_NAMES.map((engine) => runs[engine].ledger.getAccount(new PublicKey('So11111111111111111111111111111111111111112'))),
    );
    expect(a).not.toBeNull();
    const plain = (account: typeof a) => ({ ...account!, owner: account!.owner.toBase58(), data: [...account!.data] });
    expect(plain(b)).toEqual(plain(a));
  });

  it('keep a blockhash for exactly 150 blocks', () => {
    for (const engine of ENGINE_NAMES) {
      expect(runs[engine].heldValid, engine).toBe(true);
      expect(runs[engine].expired, engine).toBe(true);
    }
    expect(runs.litesvm.lastValid).toBe(runs.bankrun.lastValid);
  });

  it('report the same balances and token balances, with a limit set', () => {
    for (const key of ['create', 'transfer', 'failed'] as const) {
      const [a, b] = ENGINE_NAMES.map((engine) => runs[engine][key]);
      expect(b!.fee, key).toBe(a!.fee);
      expect(ordinary(b!, b!.preBalances), key).toEqual(ordinary(a!, a!.preBalances));
      expect(ordinary(b!, b!.postBalances), key).toEqual(ordinary(a!, a!.postBalances));
      expect(b!.preTokenBalances, key).toEqual(a!.preTokenBalances);
      expect(b!.postTokenBalances, key).toEqual(a!.postTokenBalances);
    }
    const { create } = runs.litesvm;
    // 2 signatures + 10,000 µlamports × 100,000 units.
    expect(create.fee).toBe(10_000n + 1_000n);
    expect(create.preBalances[0]! - create.postBalances[0]!).toBe(create.fee + TOKEN_ACCOUNT_RENT);
  });

  it('charge each runtime its own default compute-unit reservation, and report the fee charged', () => {
    for (const engine of ENGINE_NAMES) {
      const { priced } = runs[engine];
      expect(priced.err, engine).toBeNull();
      expect(priced.preBalances[0]! - priced.postBalances[0]!, engine).toBe(priced.fee);
    }
    // bankrun reserves 200,000 units for the memo; LiteSVM 200,000 for the memo and 3,000 for ComputeBudget itself.
    expect(runs.bankrun.priced.fee).toBe(10_000n + 200_000n);
    expect(runs.litesvm.priced.fee).toBe(10_000n + 203_000n);
  });

  it('report inner instructions where the engine records them', () => {
    expect(runs.bankrun.create.innerInstructions).toBeNull();
    const { create, transfer } = runs.litesvm;
    // The ATA creation (instruction 2) invoked the Token program and the System program.
    const ata = create.innerInstructions!.find((group) => group.index === 2)!;
    expect(ata.instructions.length).toBeGreaterThan(0);
    const invoked = new Set(ata.instructions.map((ix) => create.accountKeys[ix.programIdIndex]));
    expect(invoked).toEqual(new Set([PROGRAMS.token.toBase58(), PROGRAMS.system.toBase58()]));
    expect(ata.instructions.every((ix) => ix.stackHeight === 2)).toBe(true);
    const allocate = ata.instructions.find((ix) => create.accountKeys[ix.programIdIndex] === PROGRAMS.system.toBase58())!;
    expect(allocate.accounts.map((index) => create.accountKeys[index])).toContain(bobAta.toBase58());
    // A plain transfer and a memo invoke nothing.
    expect(transfer.innerInstructions).toEqual([]);
  });

  it('mean the same by their logs where the text differs', () => {
    for (const engine of ENGINE_NAMES) {
      const { failed, transfer } = runs[engine];
      expect(
        failed.logs.some((line) => line.startsWith(`Program ${PROGRAMS.token.toBase58()} failed`)),
        engine,
      ).toBe(true);
      expect(transfer.logs.filter((line) => line.endsWith(' success'))).toHaveLength(2);
    }
  });
});

describe.each(ENGINE_NAMES)('%s blockhashes', (engine) => {
  it('differ from slot to slot and are the same from run to run', async () => {
    const genesis: never[] = [];
    const first = await Ledger.create({ engine: ENGINES[engine], genesis, genesisTime: new Date('2026-01-01T00:00:00Z'), slotMs: 400 });
    const second = await Ledger.create({ engine: ENGINES[engine], genesis, genesisTime: new Date('2026-01-01T00:00:00Z'), slotMs: 400 });
    const before = (await first.latestBlockhash()).blockhash;
    await first.warp({ slots: 1 });
    const after = (await first.latestBlockhash()).blockhash;
    expect(after).not.toBe(before);
    if (engine === 'litesvm') {
      await second.warp({ slots: 1 });
      expect((await second.latestBlockhash()).blockhash).toBe(after);
    }
    await first.close();
    await second.close();
  });
});
