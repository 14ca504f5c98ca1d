import { Keypair } from '@solana/web3.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BOB, USDC } from '../../../test/support/transactions.ts';
import { decodeState } from '../../domain/state/state-codec.ts';
import { createRelayEmulator, type RelayEmulator } from '../../assembly/emulator.ts';
import { listSegments, segmentPath } from './journal-segments.ts';
import { StateFile } from './state-file.ts';

/**
 * Damage is not a torn append (issue 24.6, 24.7). A crash mid-append leaves an incomplete last line
 * or a NUL hole past the last fsync, and only that is cut. A changed byte in a whole entry, a
 * segment cut short of what was synced (at an entry boundary too), a missing segment, a snapshot
 * whose checksum fails: each refuses the start, naming the file, the byte and how to go on, and
 * leaves every file as it was. Each of these once started silently, losing acknowledged relays.
 */
describe('StateFile: damage refuses the start', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-state-damage-'));
  const emulators: RelayEmulator[] = [];
  afterAll(async () => {
    for (const emulator of emulators) await emulator.close();
    rmSync(directory, { recursive: true, force: true });
  });
  const emulator = async () => {
    const created = await createRelayEmulator();
    emulators.push(created);
    return created;
  };
  const fundBob = (target: RelayEmulator) => target.faucet({ address: BOB.publicKey, mint: USDC, amount: 1n });

  /** Three funded accounts, each its own acknowledged unit; the files and a copy of them. */
  const threeFunded = async (name: string) => {
    const path = join(directory, name, 'state.json');
    const first = await emulator();
    await new StateFile({ path, emulator: first, intervalMs: 0 }).open();
    const funded = [1, 2, 3].map((seed) => Keypair.fromSeed(Buffer.alloc(32, seed)).publicKey);
    for (const address of funded) await first.faucet({ address, lamports: 1_000_000n });
    await first.services.changes.durable();
    const [segment] = await listSegments(path);
    const file = segmentPath(path, segment!);
    return { path, funded, file, bytes: readFileSync(file) };
  };
  const refusesUntouched = async (path: string, file: string, pattern: RegExp) => {
    const before = readFileSync(file);
    const error = await new StateFile({ path, emulator: await emulator(), intervalMs: 0 }).open().then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(pattern);
    expect(error?.message).toMatch(/Nothing was changed\. /);
    expect(readFileSync(file)).toEqual(before);
    expect(existsSync(`${path}.lock`)).toBe(false);
  };

  it('refuses a changed byte in any whole entry, the last one too, rather than cut an acknowledged one as a torn append', async () => {
    const { path, funded, file, bytes } = await threeFunded('changed');
    const lines = bytes.toString('utf8').split('\n');
    for (const [entry, at] of [
      ['second-last', lines.slice(0, -3).join('\n').length + 20],
      ['last', lines.slice(0, -2).join('\n').length + 20],
    ] as const) {
      const flipped = Buffer.from(bytes);
      flipped[at]! ^= 1;
      writeFileSync(file, flipped);
      await refusesUntouched(
        path,
        file,
        new RegExp(
          `${file} is damaged at byte \\d+: the entry there fails its checksum, inside the ${bytes.length} bytes that were synced and ` +
            `acknowledged.*start once with --accept-state-loss, which cuts it there`,
        ),
      );
      expect(entry).toBeTruthy();
    }
    // Nothing was cut: once the byte is put back, everything is there.
    writeFileSync(file, bytes);
    const second = await emulator();
    await new StateFile({ path, emulator: second, intervalMs: 0 }).open();
    for (const address of funded) expect((await second.services.ledger.getAccount(address))?.lamports).toBe(1_000_000n);
  }, 60_000);

  it('refuses a segment cut at an entry boundary, and a missing segment, which a start once took for a clean end', async () => {
    const { path, file, bytes } = await threeFunded('cut');
    const lines = bytes.toString('utf8').split('\n');
    const boundary = Buffer.byteLength(lines.slice(0, -2).join('\n')) + 1;
    writeFileSync(file, bytes.subarray(0, boundary));
    await refusesUntouched(
      path,
      file,
      new RegExp(
        `${file} is damaged at byte ${boundary}: it ends at byte ${boundary}, but ${bytes.length} bytes were synced and acknowledged: it was cut short`,
      ),
    );
    // Cut to nothing: a segment is created whole with its header, so an empty one was cut.
    writeFileSync(file, '');
    await refusesUntouched(path, file, new RegExp(`${file} is damaged at byte 0: it is empty, yet every segment is created whole with its header`));
    writeFileSync(file, bytes);

    // After a snapshot, the segment it names as the journal's next is deleted.
    const snapshotted = join(directory, 'deleted', 'state.json');
    const first = await emulator();
    const state = new StateFile({ path: snapshotted, emulator: first, intervalMs: 0 });
    await state.open();
    await state.checkpoint();
    await first.faucet({ address: Keypair.fromSeed(Buffer.alloc(32, 9)).publicKey, lamports: 5_000_000n });
    await first.services.changes.durable();
    const { journal } = decodeState(readFileSync(snapshotted, 'utf8')) as { journal: { from: number } };
    expect(await listSegments(snapshotted)).toEqual([journal.from]);
    rmSync(segmentPath(snapshotted, journal.from));
    await refusesUntouched(
      snapshotted,
      snapshotted,
      new RegExp(
        `${segmentPath(snapshotted, journal.from)} is damaged: it is missing, yet the snapshot in ${snapshotted} covers the journal up to segment ` +
          `${journal.from}`,
      ),
    );
  }, 60_000);

  it('refuses the newest segment deleted after a restart and a crash: the restart closed the one before it for it (final=1)', async () => {
    const path = join(directory, 'restarted', 'state.json');
    const first = await emulator();
    const state = new StateFile({ path, emulator: first, intervalMs: 0 });
    await state.open();
    await fundBob(first);
    await state.close();
    const afterStop = await listSegments(path);
    // The restart: a new segment for what it journals; then it dies with six acknowledged units there.
    const second = await emulator();
    await new StateFile({ path, emulator: second, intervalMs: 0 }).open();
    for (const seed of [1, 2, 3, 4, 5, 6]) await second.faucet({ address: Keypair.fromSeed(Buffer.alloc(32, seed)).publicKey, lamports: 1_000_000n });
    await second.services.changes.durable();
    const newest = (await listSegments(path)).at(-1)!;
    expect(afterStop).not.toContain(newest);
    const before = segmentPath(path, newest - 1);
    rmSync(segmentPath(path, newest));
    await refusesUntouched(
      path,
      before,
      new RegExp(`${segmentPath(path, newest)} is damaged: it is missing, yet ${before} was closed for it \\(final=1\\): the journal went on there`),
    );
  }, 60_000);

  it('--accept-state-loss cuts a changed entry and what follows, keeps copies, and the next start is clean (issue 45, item 7)', async () => {
    const { path, funded, file, bytes } = await threeFunded('accepted');
    const lines = bytes.toString('utf8').split('\n');
    // The second entry from the end fails its checksum: the first funded account survives, the last two are cut.
    const at = Buffer.byteLength(lines.slice(0, -3).join('\n')) + 20;
    const flipped = Buffer.from(bytes);
    flipped[at]! ^= 1;
    writeFileSync(file, flipped);
    await refusesUntouched(path, file, /--accept-state-loss/);

    const second = await emulator();
    const accepted = new StateFile({ path, emulator: second, intervalMs: 0, acceptLoss: true });
    const opened = await accepted.open();
    expect(opened.losses).toHaveLength(1);
    const [loss] = opened.losses;
    expect(loss).toMatchObject({ file, offset: Buffer.byteLength(lines.slice(0, -3).join('\n')) + 1 });
    expect(loss!.lostBytes).toBe(bytes.length - loss!.offset);
    // The copy is the damaged file as it was, byte for byte.
    expect(loss!.copies).toHaveLength(1);
    expect(readFileSync(loss!.copies[0]!)).toEqual(flipped);
    const balances = await Promise.all(funded.map(async (address) => (await second.services.ledger.getAccount(address))?.lamports ?? 0n));
    expect(balances[0]).toBe(1_000_000n);
    expect(balances.slice(1)).toEqual([0n, 0n]);
    // What it journals after the cut is kept; a third start, without the flag, finds nothing to refuse.
    const later = Keypair.fromSeed(Buffer.alloc(32, 7)).publicKey;
    await second.faucet({ address: later, lamports: 2_000_000n });
    await second.services.changes.durable();
    await accepted.close();
    const third = await emulator();
    await new StateFile({ path, emulator: third, intervalMs: 0 }).open();
    expect((await third.services.ledger.getAccount(funded[0]!))?.lamports).toBe(1_000_000n);
    expect((await third.services.ledger.getAccount(later))?.lamports).toBe(2_000_000n);
  }, 60_000);

  it('--accept-state-loss does not touch a journal with no byte to cut at (a missing segment): it refuses as before', async () => {
    const path = join(directory, 'accept-missing', 'state.json');
    const first = await emulator();
    const state = new StateFile({ path, emulator: first, intervalMs: 0 });
    await state.open();
    await state.checkpoint();
    await fundBob(first);
    await first.services.changes.durable();
    const { journal } = decodeState(readFileSync(path, 'utf8')) as { journal: { from: number } };
    rmSync(segmentPath(path, journal.from));
    const error = await new StateFile({ path, emulator: await emulator(), intervalMs: 0, acceptLoss: true }).open().then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(/is damaged: it is missing/);
    expect(existsSync(`${path}.lock`)).toBe(false);
  }, 60_000);

  it('refuses a snapshot whose checksum fails (one flipped bit), and leaves it as it was', async () => {
    const path = join(directory, 'flipped', 'state.json');
    const first = await emulator();
    const file = new StateFile({ path, emulator: first, intervalMs: 0 });
    await file.open();
    await fundBob(first);
    await file.close();
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/,"checksum":"crc32:[0-9a-f]{8}"}$/);
    // The first digit of a balance: one bit turns a digit into another digit; still JSON, still a balance.
    const at = text.search(/"lamports":\{"\$bigint":"\d/) + '"lamports":{"$bigint":"'.length;
    expect(text[at]).toMatch(/\d/);
    const flipped = Buffer.from(text);
    flipped[at]! ^= 1;
    writeFileSync(path, flipped);
    await refusesUntouched(
      path,
      path,
      new RegExp(`${path} is damaged: its checksum is crc32:[0-9a-f]{8}, but its content sums to crc32:[0-9a-f]{8}: it was changed after it was taken`),
    );
    writeFileSync(path, text);
    await new StateFile({ path, emulator: await emulator(), intervalMs: 0 }).open();
  }, 60_000);
});
