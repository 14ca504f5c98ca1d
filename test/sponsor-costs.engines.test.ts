/**
 * Issue 44: who a sponsored transaction is charged to, and what it cost: the request's
 * X-Relay-Emulator-Test header first, then the vitest test running in process, then the request's
 * app; the fee payer's net loss (fees, rent it fronted, less a close's refund), on both engines; the
 * web UI's relay rows carry both, which its list groups by.
 */
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_LABELS } from '../src/domain/relay/cost-labels.ts';
import { createRelayEmulator, type RelayEmulator } from '../src/index.ts';
import { ALICE, ata, build, createAtaInstructions, transferInstruction } from './support/transactions.ts';

describe('sponsor costs by label', () => {
  let emulator: RelayEmulator;
  beforeAll(async () => {
    emulator = await createRelayEmulator();
  });
  afterAll(() => emulator.close());

  /** A relay over the loopback socket (`socket`), or through the core in this async context (`core`, as MSW mounts it). */
  const relay = async (path: string, transaction: string, headers: Record<string, string> = {}, via: 'socket' | 'core' = 'socket') => {
    const request = new Request(`${emulator.config.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ signedTransaction: transaction }),
    });
    const response = await (via === 'core' ? emulator.fetch(request) : fetch(request));
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { signature: string }).signature;
  };
  /** Each transfer its own amount: two built on one blockhash are never one transaction (the relay would take the second as the first). */
  let amount = 0n;
  const blockhash = async () =>
    (await emulator
      .fetch(new Request(`${emulator.config.baseUrl}/Transaction/blockhash`, { headers: { 'X-API-Key': emulator.config.apiKey } }))
      .then((response) => response.json())) as { Blockhash: string };

  it('charges a relay to its header, else the test running in process, else its app; a token account’s rent is the sponsor’s', async () => {
    const transfer = async () =>
      build({ instructions: [transferInstruction(ALICE, ALICE.publicKey, (amount += 1n))], blockhash: (await blockhash()).Blockhash, signers: [ALICE] });
    await relay('/Transaction/send', await transfer(), { 'X-Relay-Emulator-Test': 'checkout > pays' });
    await TEST_LABELS.run('suite.test.ts > in process', async () => {
      // In process, the test's async context names it.
      await relay('/Transaction/send', await transfer(), {}, 'core');
      // The header names the test even in process.
      await relay('/Transaction/send', await transfer(), { 'X-Relay-Emulator-Test': 'checkout > pays' }, 'core');
    });
    const owner = Keypair.generate();
    await relay('/Account/create', build({ instructions: createAtaInstructions(owner.publicKey), blockhash: (await blockhash()).Blockhash, signers: [owner] }));
    await emulator.settle();
    const costs = Object.fromEntries(emulator.sponsorCosts().map(({ label, ...cost }) => [label, cost]));
    expect(Object.keys(costs).sort()).toEqual(['app relay-emulator-dev-key', 'checkout > pays', 'suite.test.ts > in process']);
    expect(costs['checkout > pays']).toMatchObject({ transactions: 2, feeLamports: 20_000n, rentLamports: 0n, sponsorLamports: 20_000n });
    expect(costs['suite.test.ts > in process']).toMatchObject({ transactions: 1, sponsorLamports: 10_000n });
    // The token account's rent, fronted by the fee payer: the ledger's own figure.
    const rent = (await emulator.getAccount(ata(owner.publicKey)))!.lamports;
    expect(costs['app relay-emulator-dev-key']).toMatchObject({ transactions: 1, feeLamports: 10_000n, rentLamports: rent, sponsorLamports: 10_000n + rent });
  });

  it('charges concurrent tests each their own relays, over a socket too, by the async context each runs in (issue 53, item 13)', async () => {
    const { nameRequestsByTest } = await import('../src/vitest/test-header.ts');
    nameRequestsByTest();
    const transfer = async () =>
      build({ instructions: [transferInstruction(ALICE, ALICE.publicKey, (amount += 1n))], blockhash: (await blockhash()).Blockhash, signers: [ALICE] });
    // Two tests at once, their relays interleaved; one named past ASCII (sent percent-encoded).
    const names = ['a.test.ts > first', 'a.test.ts > second › “quoted”'];
    const counts = [3, 1];
    await Promise.all(
      names.map((name, index) =>
        TEST_LABELS.run(name, async () => {
          for (let sent = 0; sent < counts[index]!; sent += 1) {
            await relay('/Transaction/send', await transfer());
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        }),
      ),
    );
    await emulator.settle();
    const costs = Object.fromEntries(emulator.sponsorCosts().map(({ label, ...cost }) => [label, cost]));
    expect(costs[names[0]!]).toMatchObject({ transactions: 3 });
    expect(costs[names[1]!]).toMatchObject({ transactions: 1 });
  });

  it('puts the label and the sponsor’s cost on the web UI’s relay rows', async () => {
    const { relays } = (await (await fetch(`${emulator.loopbackOrigin}/__emulator/relays`)).json()) as {
      relays: { label: string | null; sponsorCost: number | null; operation: string }[];
    };
    const labelled = relays.filter((row) => row.label === 'checkout > pays');
    expect(labelled).toHaveLength(2);
    expect(labelled.every((row) => row.sponsorCost === 10_000)).toBe(true);
    expect(relays.find((row) => row.operation === 'create')).toMatchObject({ label: 'app relay-emulator-dev-key', sponsorCost: expect.any(Number) });
  });
});
