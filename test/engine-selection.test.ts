/**
 * Picking the ledger engine (option `engine`), what the emulator says about it (/health, config,
 * the web UI's overview),
 * and LiteSVM's blockhashes through the relay: one from GET /Transaction/blockhash stays valid
 * whatever the wall time, until 150 blocks pass or expireBlockhash() is called.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBankrunEngine, createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { defaultEngineName, ENGINE_ENV } from '../src/domain/ledger/engines.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { assertFetchResponseMatchesSpec } from './support/openapi.ts';
import { ALICE, build, transferInstruction } from './support/transactions.ts';

/** What GET /__emulator/overview (the web UI's overview) says the engine is, checked against the contract. */
async function overviewEngine(emulator: RelayEmulator): Promise<unknown> {
  const response = await emulator.fetch(new Request('http://127.0.0.1:8787/__emulator/overview'));
  expect(response.status).toBe(200);
  return ((await assertFetchResponseMatchesSpec('GET', '/__emulator/overview', response)) as { engine: unknown }).engine;
}

describe('option engine', () => {
  it('takes a name, reports it in config, /health and the overview, and refuses a name it does not know', async () => {
    for (const engine of ['litesvm', 'bankrun'] as const) {
      const emulator = await createRelayEmulator({ engine });
      try {
        expect(emulator.config.engine).toBe(engine);
        const health = await emulator.fetch(new Request('http://127.0.0.1:8787/health'));
        expect(await health.json()).toMatchObject({ status: 'ok', engine });
        expect(await overviewEngine(emulator)).toBe(engine);
      } finally {
        await emulator.close();
      }
    }
    await expect(createRelayEmulator({ engine: 'solana-test-validator' as 'litesvm' })).rejects.toThrow(
      /engine 'solana-test-validator' is not one of bankrun, litesvm/,
    );
  });

  it('takes a factory of its own, named by the engine it makes, and defaults to RELAY_EMULATOR_ENGINE or litesvm', async () => {
    const emulator = await createRelayEmulator({ engine: async (genesis) => Object.assign(await createBankrunEngine(genesis), { name: 'my-bankrun' }) });
    expect(emulator.config.engine).toBe('my-bankrun');
    expect(await overviewEngine(emulator)).toBe('my-bankrun');
    await emulator.close();
    const byDefault = await createRelayEmulator();
    expect(byDefault.config.engine).toBe(defaultEngineName());
    await byDefault.close();
  });

  it('is litesvm when nothing names one, and the overview says so', async () => {
    const named = process.env[ENGINE_ENV];
    delete process.env[ENGINE_ENV];
    try {
      const emulator = await createRelayEmulator();
      try {
        expect(await overviewEngine(emulator)).toBe('litesvm');
      } finally {
        await emulator.close();
      }
    } finally {
      if (named !== undefined) process.env[ENGINE_ENV] = named;
    }
  });
});

describe('a LiteSVM blockhash through the relay', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ engine: 'litesvm' });
  });
  afterAll(() => h.close());

  const send = (blockhash: string, amount: bigint) =>
    h.call('POST', '/Transaction/send', {
      body: { signedTransaction: build({ instructions: [transferInstruction(ALICE, ALICE.publicKey, amount)], blockhash, signers: [ALICE] }) },
    });

  it('stays valid after 3 s of wall time', async () => {
    const blockhash = await h.blockhash();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const sent = await send(blockhash, 1n);
    expect(sent.status).toBe(200);
    await h.emulator.settle();
    expect(h.emulator.services.submissions.get(sent.body.signature)).toMatchObject({ status: 'processed' });
  }, 20_000);

  it('stays valid for 150 blocks and is refused after', async () => {
    const blockhash = await h.blockhash();
    const { lastValidBlockHeight } = await h.emulator.services.ledger.latestBlockhash();
    await h.emulator.warp({ slots: Number(BigInt(lastValidBlockHeight) - h.emulator.services.ledger.clock().blockHeight) });
    expect((await send(blockhash, 2n)).status).toBe(200);
    await h.emulator.settle();
    // One block more (a slot holds several transactions: the relayed one may not have opened one).
    await h.emulator.warp({ slots: 1 });
    const late = await send(blockhash, 3n);
    expect(late).toMatchObject({ status: 422, body: { code: 'BLOCKHASH_NOT_FOUND' } });
  });

  it('is refused once expireBlockhash() is called, and the new one works', async () => {
    const blockhash = await h.blockhash();
    const fresh = await h.emulator.expireBlockhash();
    expect(fresh.blockhash).not.toBe(blockhash);
    expect(await send(blockhash, 4n)).toMatchObject({ status: 422, body: { code: 'BLOCKHASH_NOT_FOUND' } });
    expect((await send(await h.blockhash(), 5n)).status).toBe(200);
    await h.emulator.settle();
  });
});
