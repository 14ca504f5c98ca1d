import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangeFeed } from '../state/change-feed.ts';
import { journalLine, listSegments, readSegment, segmentPath } from './journal-segments.ts';
import { JournalWriter } from './journal-writer.ts';

describe('write-ahead journal files', () => {
  const directory = mkdtempSync(join(tmpdir(), 'relay-emulator-journal-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('group-commits: many units written in one turn share one write, and durable() waits for them', async () => {
    const statePath = join(directory, 'group', 'state.json');
    mkdirSync(join(directory, 'group'));
    const writer = new JournalWriter({ statePath, segment: 1 });
    expect(writer.pending).toBe(false);
    for (let index = 0; index < 50; index += 1) writer.write([{ part: 'records', change: { index, big: 10n ** 30n, bytes: new Uint8Array([index]) } }]);
    expect(writer.pending).toBe(true);
    const waited = writer.durable();
    await waited;
    expect(writer.pending).toBe(false);
    expect(writer.commits).toBe(1);
    const content = await readSegment(segmentPath(statePath, 1));
    expect(content.units).toHaveLength(50);
    expect(content.units[7]).toEqual([{ part: 'records', change: { index: 7, big: 10n ** 30n, bytes: new Uint8Array([7]) } }]);
    expect(content.damagedBytes).toBe(0);

    // A rotation sends later units to the next segment; both are durable after one wait.
    writer.write([{ part: 'history', change: 'before' }]);
    expect(writer.rotate()).toBe(2);
    writer.write([{ part: 'history', change: 'after' }]);
    await writer.durable();
    expect((await readSegment(segmentPath(statePath, 1))).units.at(-1)).toEqual([{ part: 'history', change: 'before' }]);
    expect((await readSegment(segmentPath(statePath, 2))).units).toEqual([[{ part: 'history', change: 'after' }]]);
    expect(await listSegments(statePath)).toEqual([1, 2]);
    await writer.close();
  });

  it('reads up to the first line that is not whole and checked', async () => {
    const path = join(directory, 'torn.journal');
    const good = journalLine([{ part: 'a', change: 1 }]) + journalLine([{ part: 'b', change: 'two\nlines' }]);
    for (const tail of ['', journalLine([{ part: 'c', change: 3 }]).slice(0, -1), 'deadbeef [["c",3]]\n', 'garbage\n', `${journalLine([{ part: 'c', change: 3 }]).slice(0, 9)}{"no":"array"}\n`]) {
      writeFileSync(path, good + tail);
      const content = await readSegment(path);
      expect(content.units.map((unit) => unit[0]!.part)).toEqual(['a', 'b']);
      expect(content.goodBytes).toBe(Buffer.byteLength(good));
      expect(content.damagedBytes).toBe(Buffer.byteLength(tail));
    }
    expect(readFileSync(path, 'utf8').split('\n')[1]).toContain('"two\\nlines"');
  });

  it('tells a changed line with whole lines after it from a torn tail or a hole', async () => {
    const path = join(directory, 'changed.journal');
    const line = (change: number) => journalLine([{ part: 'a', change }]);
    const changed = line(2).replace('"a"', '"b"');
    writeFileSync(path, line(1) + changed + line(3) + line(4));
    expect(await readSegment(path)).toMatchObject({ goodBytes: line(1).length, unitsAfterDamage: 2, damageHasHole: false });
    writeFileSync(path, Buffer.concat([Buffer.from(line(1)), Buffer.alloc(300), Buffer.from(line(3).slice(5) + line(4))]));
    expect(await readSegment(path)).toMatchObject({ goodBytes: line(1).length, unitsAfterDamage: 1, damageHasHole: true });
    writeFileSync(path, line(1) + line(2).slice(0, 7));
    expect(await readSegment(path)).toMatchObject({ unitsAfterDamage: 0, damageHasHole: false });
  });

  it('makes every waiter, now and later, hear that a write failed', async () => {
    // The directory does not exist: the segment cannot be opened.
    const writer = new JournalWriter({ statePath: join(directory, 'missing', 'state.json'), segment: 1 });
    writer.write([{ part: 'records', change: 1 }]);
    await expect(writer.durable()).rejects.toThrow(/ENOENT/);
    expect(writer.pending).toBe(true);
    await expect(writer.durable()).rejects.toThrow(/ENOENT/);
  });
});

describe('ChangeFeed', () => {
  it('reports nothing without a sink, one unit per change with one, and a synchronous unit as one entry', () => {
    const feed = new ChangeFeed();
    const units: unknown[][] = [];
    const records = feed.reporter('records');
    const ledger = feed.reporter('ledger');
    records('lost');
    expect(feed.recording).toBe(false);
    feed.attach({ write: (changes) => units.push([...changes]), durable: () => Promise.resolve(), pending: false });
    expect(() => feed.attach({ write: () => undefined, durable: () => Promise.resolve(), pending: false })).toThrow(/already attached/);
    records('alone');
    const answer = feed.unit(() => {
      ledger('accounts');
      records('outcome');
      // A unit inside a unit is the same unit.
      feed.unit(() => records('index'));
      return 42;
    });
    expect(answer).toBe(42);
    expect(() => feed.unit(() => {
      ledger('half');
      throw new Error('boom');
    })).toThrow('boom');
    feed.detach();
    records('lost again');
    expect(units).toEqual([
      [{ part: 'records', change: 'alone' }],
      [
        { part: 'ledger', change: 'accounts' },
        { part: 'records', change: 'outcome' },
        { part: 'records', change: 'index' },
      ],
      // What was changed before a throw is still reported: it happened.
      [{ part: 'ledger', change: 'half' }],
    ]);
  });
});
