import { Keypair } from '@solana/web3.js';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { legacyTransfer } from '../../../test/support/legacy-transactions.ts';
import { ALICE, BOB, build, KIN, transferInstruction, USDC } from '../../../test/support/transactions.ts';
import { decodeState } from '../../domain/state/state-codec.ts';
import { createRelayEmulator, type RelayEmulator } from '../../assembly/emulator.ts';
import { listSegments, segmentPath } from './journal-segments.ts';
import { StateFile } from './state-file.ts';

/**
 * The state file in process: two emulators over the same files stand for a process that died
 * (the first is never closed) and its restart (the second opens what the first left on disk).
 */
describe('StateFile', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-state-file-'));
  const emulators: RelayEmulator[] = [];
  afterAll(async () => {
    for (const emulator of emulators) await emulator.close();
    rmSync(directory, { recursive: true, force: true });
  });
  /** Bob's USDC account, made through the controls (after the state file opened: journaled too). */
  const fundBob = (target: RelayEmulator) => target.faucet({ address: BOB.publicKey, mint: USDC, amount: 1n });
  const emulator = async () => {
    const created = await createRelayEmulator();
    emulators.push(created);
    return created;
  };
  const send = async (target: RelayEmulator, amount: bigint, blockhash?: string) => {
    const hash = blockhash ?? (await target.services.ledger.latestBlockhash()).blockhash;
    const signedTransaction = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, amount)], blockhash: hash, signers: [ALICE] });
    const response = await target.fetch(
      new Request(`${target.config.baseUrl}/Transaction/send`, {
        method: 'POST',
        headers: { 'X-API-Key': target.config.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ signedTransaction }),
      }),
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { signature: string }).signature;
  };
  /** A legacy make-transfer of KIN from alice to a fresh recipient (its account made in the same transaction). */
  const legacySend = async (target: RelayEmulator) => {
    const post = (path: string, body?: unknown) =>
      target.fetch(
        new Request(
          `${target.config.baseUrl}${path}`,
          body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
        ),
      );
    const { blockhash, lastValidBlockHeight } = (await (await post('/transaction/latest-blockhash/devnet/1')).json()) as {
      blockhash: string;
      lastValidBlockHeight: number;
    };
    const recipient = Keypair.generate();
    const tx = legacyTransfer({ blockhash, memoIndex: 1, transfers: [{ from: ALICE, to: recipient.publicKey, amount: 1_000n, create: recipient }] });
    const response = await post('/transaction/make-transfer', {
      commitment: 'Confirmed',
      environment: 'devnet',
      index: 1,
      mint: KIN.toBase58(),
      lastValidBlockHeight,
      tx,
      referenceType: 'test',
      referenceId: '1',
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { signature: string }).signature;
  };
  const view = async (target: RelayEmulator) => ({
    legacy: target.services.legacy.records.all(),
    records: target.services.submissions.all().map(({ signature, status }) => ({ signature, status })),
    alice: target.services.history.query(ALICE.publicKey.toBase58(), { limit: 1000 }).map((entry) => entry.signature),
    bob: (await target.getAccount(BOB.publicKey))?.lamports,
    tokens: await Promise.all(
      target.services.tokenAccounts.of(BOB.publicKey.toBase58()).map(async (account) => (await target.getAccount(account))?.data.slice(64, 72).join(',')),
    ),
    slot: target.clock().slot,
  });

  it('journals every change before answering: a process that dies keeps all it acknowledged, and queues what was not processed once', async () => {
    const path = join(directory, 'crash', 'state.json');
    const first = await emulator();
    const file = new StateFile({ path, emulator: first, intervalMs: 0 });
    expect(await file.open()).toEqual({ snapshot: null, replayed: 0, discardedBytes: 0, requeued: 0, losses: [] });
    await fundBob(first);
    const wallet = Keypair.generate().publicKey;
    await first.faucet({ address: wallet, lamports: 777n });
    const mint = await first.createMint({ decimals: 2 });
    const processed = [await send(first, 1n), await send(first, 2n)];
    const legacy = await legacySend(first);
    await first.settle();
    first.pauseQueue();
    const issued = (await first.services.ledger.latestBlockhash()).blockhash;
    const queued = [await send(first, 3n, issued), await send(first, 4n, issued)];
    await first.services.changes.durable();
    expect(existsSync(path)).toBe(false);

    // The restart, from the journal alone (no snapshot was ever taken); a snapshot a crash cut short is cleared away.
    writeFileSync(`${path}.4242.tmp`, '{"format":"relay-emul');
    const second = await emulator();
    const opened = await new StateFile({ path, emulator: second, intervalMs: 0 }).open();
    expect(opened).toMatchObject({ snapshot: null, discardedBytes: 0, requeued: 2 });
    expect(existsSync(`${path}.4242.tmp`)).toBe(false);
    expect(opened.replayed).toBeGreaterThan(5);
    expect((await second.getAccount(wallet))?.lamports).toBe(777n);
    expect(second.services.legacy.records.bySignature(legacy)).toEqual(first.services.legacy.records.bySignature(legacy));
    expect(second.services.legacy.records.bySignature(legacy)?.status).toBe('Finalized');
    expect(second.queueState()).toMatchObject({ paused: true, pending: 2 });
    expect(await second.services.worker.waitFor(processed[0]!, 'finalized', 0)).toMatchObject({ status: 'processed' });
    // A blockhash handed out before the crash is still valid: its retry is the same relay, not a new one.
    expect(second.services.ledger.isBlockhashValid(issued)).toBe(true);
    expect(await send(second, 3n, issued)).toBe(queued[0]);
    expect(second.queueState().pending).toBe(2);
    second.resumeQueue();
    first.resumeQueue();
    await first.settle();
    await second.settle();
    // What the first emulator ended with after processing the same queue.
    expect(await view(second)).toEqual(await view(first));
    expect(
      second.services.submissions
        .all()
        .filter((record) => queued.includes(record.signature))
        .map((record) => record.status),
    ).toEqual(['processed', 'processed']);
    await expect(second.createMint({ decimals: 2 })).resolves.not.toMatchObject({ mint: mint.mint });
  }, 60_000);

  it('cuts a torn last entry, and refuses damage that is not at the very end', async () => {
    const path = join(directory, 'torn', 'state.json');
    const first = await emulator();
    await new StateFile({ path, emulator: first, intervalMs: 0 }).open();
    await fundBob(first);
    const signature = await send(first, 5n);
    await first.settle();
    await first.services.changes.durable();
    const [segment] = await listSegments(path);
    appendFileSync(segmentPath(path, segment!), '0badc0de [["records",{"op":"clear"');

    const second = await emulator();
    const opened = await new StateFile({ path, emulator: second, intervalMs: 0 }).open();
    expect(opened.discardedBytes).toBe(34);
    expect(second.services.submissions.get(signature)?.status).toBe('processed');
    expect(readFileSync(segmentPath(path, segment!), 'utf8').endsWith('\n')).toBe(true);

    // A checksum that fails in a segment that is not the last one: the files were changed by something else.
    const damaged = join(directory, 'damaged', 'state.json');
    const third = await emulator();
    await new StateFile({ path: damaged, emulator: third, intervalMs: 0 }).open();
    await fundBob(third);
    await send(third, 6n);
    await third.settle();
    await third.services.changes.durable();
    const [only] = await listSegments(damaged);
    const text = readFileSync(segmentPath(damaged, only!), 'utf8');
    writeFileSync(segmentPath(damaged, only!), text.replace(/"op":"insert"/, '"op":"insurt"'));
    writeFileSync(segmentPath(damaged, only! + 1), text);
    await expect(new StateFile({ path: damaged, emulator: await emulator(), intervalMs: 0 }).open()).rejects.toThrow(
      new RegExp(`${segmentPath(damaged, only!)} is damaged at byte \\d+: the entry there fails its checksum`),
    );
  }, 60_000);

  it('snapshots while relays go on, compacts the journal, and the snapshot plus what follows gives the same state', async () => {
    const path = join(directory, 'compact', 'state.json');
    const first = await emulator();
    const file = new StateFile({ path, emulator: first, intervalMs: 0 });
    await file.open();
    await fundBob(first);
    const relays = [...Array.from({ length: 12 }, (_, index) => send(first, BigInt(10 + index))), legacySend(first)];
    await new Promise((resolve) => setTimeout(resolve, 5));
    await file.checkpoint();
    await Promise.all(relays);
    await send(first, 99n);
    await first.settle();
    await first.services.changes.durable();
    const saved = decodeState(readFileSync(path, 'utf8')) as { format: string; journal: { from: number } };
    expect(saved.format).toBe('relay-emulator-state');
    expect(await listSegments(path)).toEqual([saved.journal.from]);

    const second = await emulator();
    const opened = await new StateFile({ path, emulator: second, intervalMs: 0 }).open();
    expect(opened.snapshot?.format).toBe('relay-emulator-state');
    await second.settle();
    expect(await view(second)).toEqual(await view(first));
    expect(second.services.submissions.all()).toHaveLength(14);
  }, 60_000);

  it('reset is journaled like any change, and close leaves one self-contained snapshot', async () => {
    const path = join(directory, 'reset', 'state.json');
    const first = await emulator();
    const file = new StateFile({ path, emulator: first, intervalMs: 0 });
    await file.open();
    await fundBob(first);
    await send(first, 7n);
    await first.settle();
    await first.reset();
    const after = await send(first, 8n);
    await first.settle();
    await file.close();
    // One self-contained snapshot, and the empty segment it names as the journal's next.
    const { journal } = decodeState(readFileSync(path, 'utf8')) as { journal: { from: number } };
    expect(await listSegments(path)).toEqual([journal.from]);
    expect(readFileSync(segmentPath(path, journal.from), 'utf8')).toMatch(/^relay-emulator-journal 2 committed=\d+ final=0 crc32=[0-9a-f]{8}\n$/);

    const second = await emulator();
    await new StateFile({ path, emulator: second, intervalMs: 0 }).open();
    expect(second.services.submissions.all().map((record) => record.signature)).toEqual([after]);
    expect(await view(second)).toEqual(await view(first));
  }, 60_000);

  it('answers 500, never 200, when what a request changed cannot be journaled', async () => {
    const gone = join(directory, 'gone');
    const target = await emulator();
    const state = new StateFile({ path: join(gone, 'state.json'), emulator: target, intervalMs: 0 });
    await state.open();
    // The folder goes once the first segment exists (removing it while that was made raced); then a
    // snapshot starts the next segment, which cannot be made: from there nothing can be journaled.
    const first = segmentPath(join(gone, 'state.json'), 1);
    await expect.poll(() => existsSync(first) && !existsSync(`${first}.tmp`)).toBe(true);
    rmSync(gone, { recursive: true, force: true });
    await expect(state.checkpoint()).rejects.toThrow(/ENOENT/);
    const { blockhash } = await target.services.ledger.latestBlockhash();
    const signedTransaction = build({ instructions: [transferInstruction(ALICE, BOB.publicKey, 1n)], blockhash, signers: [ALICE] });
    const response = await target.fetch(
      new Request(`${target.config.baseUrl}/Transaction/send`, {
        method: 'POST',
        headers: { 'X-API-Key': target.config.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ signedTransaction }),
      }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  it('refuses a file that is not a state snapshot', async () => {
    const path = join(directory, 'foreign.json');
    writeFileSync(path, JSON.stringify({ hello: 'world' }));
    await expect(new StateFile({ path, emulator: await emulator() }).open()).rejects.toThrow(/Not a relay-emulator state snapshot/);
  });
});
