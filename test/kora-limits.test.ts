import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEmulator } from '../src/index.ts';
import { koraCaller, koraToml } from './support/kora.ts';
import { ALICE, BOB, build, FEE_PAYER, transferInstruction, USDC } from './support/transactions.ts';

// Kora's per-wallet usage limit (kora.usage_limit, usage_tracker.rs), counted by the emulator in
// place of Redis: the first signer that is not Kora's pays one use per signTransaction or
// signAndSendTransaction, counted before validation, for good (until a reset).
async function start(limits: string[]) {
  const emulator = await createRelayEmulator({ kora: { config: koraToml({ tables: ['[kora.usage_limit]', ...limits] }) } });
  await emulator.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
  const call = koraCaller(emulator.config.koraUrl);
  const transfer = async () => {
    const { blockhash } = (await call('getBlockhash')).result;
    return build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1n)], blockhash, signers: [ALICE] });
  };
  return { emulator, call, transfer };
}

describe('Kora usage limits', () => {
  let limited: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    limited = await start(['enabled = true', 'cache_url = "redis://redis:6379"', 'max_transactions = 2', 'fallback_if_unavailable = false']);
  });
  afterAll(() => limited.emulator.close());

  it('lets a wallet sign max_transactions times, then refuses it in Kora’s words; the fee payer pays only for what was sent', async () => {
    const { emulator, call, transfer } = limited;
    const before = (await emulator.getAccount(FEE_PAYER))!.lamports;
    expect((await call('signTransaction', { transaction: await transfer() })).result.signed_transaction).toBeTypeOf('string');
    expect((await call('signAndSendTransaction', { transaction: await transfer() })).result.signature).toBeTypeOf('string');
    expect((await call('signAndSendTransaction', { transaction: await transfer() })).error).toEqual({
      code: -32000,
      message: `Usage limit exceeded: Wallet ${ALICE.publicKey.toBase58()} exceeded limit: 3/2`,
    });
    await emulator.settle();
    expect((await emulator.getAccount(FEE_PAYER))!.lamports).toBe(before - 10_000n);
  });

  it('keeps the counts in a snapshot: an emulator restored from it refuses the wallet too', async () => {
    const restored = await start(['enabled = true', 'cache_url = "redis://redis:6379"', 'max_transactions = 2', 'fallback_if_unavailable = false']);
    try {
      expect((await restored.call('signTransaction', { transaction: await restored.transfer() })).result?.signed_transaction).toBeTypeOf('string');
      await restored.emulator.restore(await limited.emulator.snapshot());
      expect((await restored.call('signTransaction', { transaction: await restored.transfer() })).error?.message).toBe(
        `Usage limit exceeded: Wallet ${ALICE.publicKey.toBase58()} exceeded limit: 3/2`,
      );
    } finally {
      await restored.emulator.close();
    }
  });

  it('forgets the counts on reset', async () => {
    const { emulator, call, transfer } = limited;
    expect((await call('signTransaction', { transaction: await transfer() })).error?.message).toMatch(/^Usage limit exceeded/);
    await emulator.reset();
    await emulator.faucet({ address: BOB.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
    expect((await call('signTransaction', { transaction: await transfer() })).result?.signed_transaction).toBeTypeOf('string');
  });

  it('without a cache_url, refuses everything unless fallback_if_unavailable, as Kora without its Redis', async () => {
    const strict = await start(['enabled = true', 'max_transactions = 2', 'fallback_if_unavailable = false']);
    const lenient = await start(['enabled = true', 'max_transactions = 2', 'fallback_if_unavailable = true']);
    try {
      expect((await strict.call('signTransaction', { transaction: await strict.transfer() })).error?.message).toBe(
        'Internal error: Usage limiter unavailable and fallback disabled',
      );
      for (let i = 0; i < 3; i += 1) {
        expect((await lenient.call('signTransaction', { transaction: await lenient.transfer() })).result?.signed_transaction).toBeTypeOf('string');
      }
    } finally {
      await Promise.all([strict.emulator.close(), lenient.emulator.close()]);
    }
  });
});
