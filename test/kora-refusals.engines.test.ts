/**
 * Kora's refusals, one by one, each in Kora's words (issue 27): a program outside
 * `allowed_programs`, too many signatures, a token outside `allowed_tokens`, a payment in a token
 * Kora does not take, a missing payment and a short one. None of them costs the fee payer a lamport.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { koraCaller, koraToml } from './support/kora.ts';
import { ALICE, BOB, build, FEE_PAYER, KIN, memoInstruction, transferInstruction, USDC } from './support/transactions.ts';

describe('Kora’s refusals leave the fee payer’s lamports as they were', () => {
  let emulator: RelayEmulator;
  let before: bigint;
  const call = async (method: string, params: unknown) => (await koraCaller(emulator.config.koraUrl)(method, params)).error;
  const tx = async (instructions: Parameters<typeof build>[0]['instructions'], signers = [ALICE]) => {
    const { blockhash } = (await koraCaller(emulator.config.koraUrl)('getBlockhash')).result;
    return build({ instructions, blockhash, signers });
  };

  beforeAll(async () => {
    // No [validation.price]: Kora's default, a margin of 0.
    emulator = await createRelayEmulator({ kora: { config: koraToml({ maxSignatures: 2, price: null }) } });
    for (const owner of [FEE_PAYER, BOB.publicKey]) {
      for (const mint of [USDC, KIN]) await emulator.faucet({ address: owner.toBase58(), mint: mint.toBase58(), amount: 0 });
    }
    await emulator.faucet({ address: ALICE.publicKey.toBase58(), mint: KIN.toBase58(), amount: 1_000_000 });
    before = (await emulator.getAccount(FEE_PAYER))!.lamports;
  });
  afterAll(async () => {
    await emulator.settle();
    expect((await emulator.getAccount(FEE_PAYER))!.lamports).toBe(before);
    await emulator.close();
  });

  const usdcTo = (to: typeof FEE_PAYER, amount: bigint) => transferInstruction(ALICE, to, amount);
  const kinTo = (to: typeof FEE_PAYER, amount: bigint) => transferInstruction(ALICE, to, amount, { mint: KIN });

  it('a program not in allowed_programs', async () => {
    expect(await call('signAndSendTransaction', { transaction: await tx([memoInstruction('hi'), usdcTo(FEE_PAYER, 200_000n)]) })).toEqual({
      code: -32000,
      message: 'Invalid transaction: Program MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr is not in the allowed list',
    });
  });

  it('more signatures than max_signatures', async () => {
    const both = await tx([usdcTo(BOB.publicKey, 1n), transferInstruction(BOB, ALICE.publicKey, 0n), usdcTo(FEE_PAYER, 200_000n)], [ALICE, BOB]);
    expect((await call('signAndSendTransaction', { transaction: both }))?.message).toBe('Invalid transaction: Too many signatures: 3 > 2');
  });

  it('a token not in allowed_tokens (transferTransaction)', async () => {
    const request = { amount: 1, token: KIN.toBase58(), source: ALICE.publicKey.toBase58(), destination: BOB.publicKey.toBase58() };
    expect((await call('transferTransaction', request))?.message).toBe(`Invalid transaction: Mint ${KIN.toBase58()} is not a valid token mint`);
  });

  it('a payment in a token Kora does not take, a missing payment and a short one', async () => {
    // The default price, a margin of 0: two signatures (10,000), plus 50 for a payment instruction when there is none.
    const insufficient = (lamports: number) => `Invalid transaction: Insufficient token payment. Required ${lamports} lamports`;
    expect((await call('signAndSendTransaction', { transaction: await tx([usdcTo(BOB.publicKey, 1n), kinTo(FEE_PAYER, 1_000_000n)]) }))?.message).toBe(
      insufficient(10_000),
    );
    expect((await call('signAndSendTransaction', { transaction: await tx([usdcTo(BOB.publicKey, 1n)]) }))?.message).toBe(insufficient(10_050));
    // Devnet USDC at the mock oracle's 0.0001 SOL: 99,999 base units are 9,999 lamports.
    expect((await call('signAndSendTransaction', { transaction: await tx([usdcTo(BOB.publicKey, 1n), usdcTo(FEE_PAYER, 99_999n)]) }))?.message).toBe(
      insufficient(10_000),
    );
  });
});
