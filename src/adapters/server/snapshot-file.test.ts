import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EmulatorSnapshot } from '../../domain/state/snapshot.ts';
import { readStateFile, writeStateFile } from './snapshot-file.ts';

describe('the state file on disk', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-snapshot-file-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const snapshot = (parts: Record<string, unknown>): EmulatorSnapshot => ({
    format: 'relay-emulator-state',
    version: 2,
    savedAt: '2026-01-01T00:00:00.000Z',
    feePayer: 'x',
    queuePaused: false,
    parts,
  });

  it('writes it sealed and reads it back; the checksum is the last field', async () => {
    const path = join(directory, 'ok', 'state.json');
    const bytes = await writeStateFile(
      path,
      { ...snapshot({ ledger: { lamports: 10n ** 20n, data: new Uint8Array([1, 2]) } }), journal: { from: 3 } },
      { fsync: true },
    );
    expect(bytes).toBe(readFileSync(path).length);
    expect(readFileSync(path, 'utf8')).toMatch(/"journal":\{"from":3\},"checksum":"crc32:[0-9a-f]{8}"\}$/);
    expect(await readStateFile(path)).toMatchObject({ parts: { ledger: { lamports: 10n ** 20n, data: new Uint8Array([1, 2]) } }, journal: { from: 3 } });
    expect(await readStateFile(join(directory, 'none.json'))).toBeNull();
  });

  it('leaves no temporary behind, and the old file as it was, when a write fails', async () => {
    const folder = join(directory, 'failing');
    mkdirSync(folder);
    const path = join(folder, 'state.json');
    writeFileSync(path, 'the old one');
    // Fails while encoding (a value JSON cannot hold), after the temporary was opened.
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(writeStateFile(path, snapshot({ broken: { a: { b: { c: circular } } } }), { fsync: false })).rejects.toThrow(/circular/i);
    expect(readdirSync(folder)).toEqual(['state.json']);
    expect(readFileSync(path, 'utf8')).toBe('the old one');
    // Fails at the rename (where the file should be is a directory that is not empty).
    const blocked = join(folder, 'blocked.json');
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    await expect(writeStateFile(blocked, snapshot({}), { fsync: false })).rejects.toThrow();
    expect(readdirSync(folder).sort()).toEqual(['blocked.json', 'state.json']);
  });

  it('calls a file that is not JSON damaged, naming it, and leaves another kind of JSON to be refused as such', async () => {
    const path = join(directory, 'text.json');
    writeFileSync(path, '{"format":"relay-emulator-state"');
    await expect(readStateFile(path)).rejects.toThrow(new RegExp(`${path} is damaged: it is not JSON .*Nothing was changed`));
    writeFileSync(path, '{"hello":"world"}');
    await expect(readStateFile(path)).resolves.toEqual({ hello: 'world' });
  });
});
