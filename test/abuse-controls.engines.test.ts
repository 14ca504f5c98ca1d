/**
 * Controls driven as a careless or hostile test would drive them (issue: faults and abuse, items
 * 1 to 4): writes to the runtime's own accounts, controls raced against a stepped or flushed queue,
 * a legacy relay refused by a full queue, and one cut short by a reset. Each failed before its fix:
 * the process aborted at the next transaction, a reset rejected or killed Node, a restored snapshot
 * ran a transfer twice, a record stayed Processing for good, a TypeError answered 500.
 */
import { LAMPORTS_PER_SOL } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelayEmulator, sealSnapshot, type RelayEmulator } from '../src/index.ts';
import { legacyTransfer } from './support/legacy-transactions.ts';
import { newKeypair } from './support/keys.ts';
import { ALICE, build, KIN, USDC, ata, createAtaInstructions, transferInstruction } from './support/transactions.ts';

const RUNTIME_ACCOUNTS = [
  '11111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'SysvarC1ock11111111111111111111111111111111',
  'SysvarRent111111111111111111111111111111111',
];

describe('abuse of the controls', () => {
  let emulator: RelayEmulator;
  afterEach(() => emulator.close());

  const control = async (method: string, path: string, body?: unknown) => {
    const response = await emulator.fetch(
      new Request(`http://127.0.0.1:8787${path}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** A transaction of any kind still runs: an airdrop through the queue. */
  const stillRuns = async () => {
    const owner = newKeypair().publicKey.toBase58();
    await emulator.faucet({ address: owner, lamports: LAMPORTS_PER_SOL });
    await emulator.settle();
    expect((await emulator.getAccount(owner))?.lamports).toBe(BigInt(LAMPORTS_PER_SOL));
  };
  const relaySend = async (signedTransaction: string) => {
    const response = await emulator.fetch(
      new Request(`${emulator.config.baseUrl}/Transaction/send`, {
        method: 'POST',
        headers: { 'X-API-Key': emulator.config.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ signedTransaction }),
      }),
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { signature: string }).signature;
  };

  it('refuses writes to builtin programs, loaded programs and sysvars (409 ACCOUNT_PROTECTED), and transactions go on', async () => {
    emulator = await createRelayEmulator();
    for (const address of RUNTIME_ACCOUNTS) {
      const before = await emulator.getAccount(address);
      const answer = await control('PUT', `/__emulator/accounts/${address}`, {
        lamports: 0,
        owner: '11111111111111111111111111111111',
        data: '',
        executable: false,
      });
      expect(answer, address).toMatchObject({ status: 409, body: { code: 'ACCOUNT_PROTECTED' } });
      expect(String(answer.body.detail)).toMatch(/never replaces the runtime's own accounts/);
      const faucet = await control('POST', '/__emulator/faucet', { address, lamports: 1 });
      expect(faucet, address).toMatchObject({ status: 409, body: { code: 'ACCOUNT_PROTECTED' } });
      expect(await emulator.getAccount(address)).toEqual(before);
    }
    // An account owned by the sysvar owner cannot be made either.
    const made = await control('PUT', `/__emulator/accounts/${newKeypair().publicKey.toBase58()}`, {
      lamports: 1_000_000,
      owner: 'Sysvar1111111111111111111111111111111111111',
      data: '',
      executable: false,
    });
    expect(made).toMatchObject({ status: 409, body: { code: 'ACCOUNT_PROTECTED' } });
    await stillRuns();
  });

  it('starts from a snapshot that holds such a write (saved before it was refused), leaving the write out', async () => {
    emulator = await createRelayEmulator();
    const snapshot = await emulator.snapshot();
    const ledger = snapshot.parts.ledger as { accounts: { address: string; account: unknown }[] };
    ledger.accounts.push(
      { address: '11111111111111111111111111111111', account: null },
      {
        address: 'SysvarRent111111111111111111111111111111111',
        account: { lamports: 1n, owner: '11111111111111111111111111111111', data: new Uint8Array(), executable: false },
      },
    );
    await emulator.close();
    emulator = await createRelayEmulator();
    // Changed on purpose here, so sealed again (its checksum would refuse it otherwise).
    await emulator.restore(sealSnapshot(snapshot));
    await stillRuns();
  });

  it('lets no control run while a stepped job is in the ledger: reset during stepQueue never rejects or kills the process', async () => {
    emulator = await createRelayEmulator();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (let round = 0; round < 5; round += 1) {
        emulator.pauseQueue();
        const owner = newKeypair();
        await relaySend(
          build({
            instructions: createAtaInstructions(owner.publicKey),
            blockhash: (await emulator.services.ledger.latestBlockhash()).blockhash,
            signers: [owner],
          }),
        );
        const [stepped] = await Promise.all([emulator.stepQueue(), emulator.reset()]);
        expect(stepped.length).toBeLessThanOrEqual(1);
        await emulator.reset();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('snapshots between flushed jobs, never in the middle of one: a restore runs each acknowledged transfer once', async () => {
    const engine = (process.env.RELAY_EMULATOR_ENGINE ?? 'litesvm') as 'litesvm' | 'bankrun';
    // The snapshot is asked for a few turns of the event loop after the flush starts, so that it
    // lands while one of the flushed transfers is in the ledger.
    for (const turns of [1, 2, 3, 5, 8, 13]) {
      emulator = await createRelayEmulator({ engine });
      const recipient = newKeypair();
      await emulator.faucet({ address: recipient.publicKey.toBase58(), mint: USDC.toBase58(), amount: 0 });
      emulator.pauseQueue();
      const amounts = [1_000n, 1_001n, 1_002n, 1_003n];
      for (const amount of amounts) {
        const { blockhash } = await emulator.services.ledger.latestBlockhash();
        await relaySend(build({ instructions: [transferInstruction(ALICE, recipient.publicKey, amount)], blockhash, signers: [ALICE] }));
      }
      const flushed = emulator.flushQueue();
      for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      const snapshot = await emulator.snapshot();
      await flushed;
      await emulator.close();
      emulator = await createRelayEmulator({ engine });
      await emulator.restore(snapshot);
      // The snapshot kept the queue paused, as it was.
      emulator.resumeQueue();
      await emulator.settle();
      const account = await emulator.services.ledger.getAccount(ata(recipient.publicKey));
      expect(Buffer.from(account!.data).readBigUInt64LE(64), `snapshot ${turns} turns into the flush`).toBe(amounts.reduce((sum, each) => sum + each, 0n));
      await emulator.close();
    }
    emulator = await createRelayEmulator({ engine });
  });
});

describe('legacy relays the queue refuses, or a reset cuts short', () => {
  let emulator: RelayEmulator;
  afterEach(() => emulator.close());

  let amount = 0n;
  const makeTransfer = async (reference: string) => {
    const { blockhash, lastValidBlockHeight } = await emulator.services.ledger.latestBlockhash();
    // A different amount each time: the same signed transaction again would be a retry, answered with its first record.
    amount += 1n;
    const tx = legacyTransfer({ blockhash, memoIndex: 1, transfers: [{ from: ALICE, to: ALICE.publicKey, amount }] });
    const response = await emulator.fetch(
      new Request(`${emulator.config.baseUrl}/transaction/make-transfer`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          commitment: 'Confirmed',
          environment: 'devnet',
          index: 1,
          mint: KIN.toBase58(),
          lastValidBlockHeight: Number(lastValidBlockHeight),
          reference,
          tx,
        }),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const recordsOf = (reference: string) => emulator.services.legacy.records.find('app-1-devnet', { reference });

  it('records nothing for a make-transfer answered 503 QUEUE_FULL, and the first one still ends Confirmed', async () => {
    emulator = await createRelayEmulator({ queue: { mode: 'manual', maxPending: 1 } });
    const first = makeTransfer('first');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await makeTransfer('refused');
    expect(refused).toMatchObject({ status: 503, body: { statusCode: 503 } });
    expect(recordsOf('refused')).toEqual([]);
    const retried = await makeTransfer('refused');
    expect(retried.status).toBe(503);
    expect(recordsOf('refused')).toEqual([]);
    emulator.resumeQueue();
    expect(await first).toMatchObject({ status: 201, body: { status: 'Confirmed' } });
    expect(recordsOf('first')).toHaveLength(1);
    expect(emulator.services.legacy.records.all().every((record) => record.status !== 'Processing')).toBe(true);
  });

  it('answers a make-transfer waiting across a reset 503 EMULATOR_RESET at once, not a TypeError at its timeout', async () => {
    emulator = await createRelayEmulator({ queue: { mode: 'manual' } });
    const waiting = makeTransfer('cut-short');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await emulator.reset();
    const answer = await waiting;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answer).toMatchObject({ status: 503, body: { statusCode: 503, error: 'Service Unavailable' } });
    expect(String(answer.body.message)).toMatch(/removed by a reset/);
    expect(emulator.services.legacy.records.all()).toEqual([]);
  });
});
