import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmitter } from '../../domain/events.ts';
import { ChangeFeed } from '../../domain/state/change-feed.ts';
import { createdHeader, HEADER_BYTES, headerText, journalLine } from './journal-format.ts';
import { judgeSegment, listSegments, readSegment, segmentPath } from './journal-segments.ts';
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
    expect(content.end).toEqual({ kind: 'clean' });
    // The header says how far it was synced: all of it.
    expect(content.header).toEqual({ committed: content.length, final: false });

    // A rotation sends later units to the next segment; both are durable after one wait.
    writer.write([{ part: 'history', change: 'before' }]);
    expect(writer.rotate()).toBe(2);
    writer.write([{ part: 'history', change: 'after' }]);
    await writer.durable();
    const closed = await readSegment(segmentPath(statePath, 1));
    expect(closed.units.at(-1)).toEqual([{ part: 'history', change: 'before' }]);
    // Left for the next one: closed whole.
    expect(closed.header).toEqual({ committed: closed.length, final: true });
    expect((await readSegment(segmentPath(statePath, 2))).units).toEqual([[{ part: 'history', change: 'after' }]]);
    expect(await listSegments(statePath)).toEqual([1, 2]);
    await writer.close();
  });

  const header = (committed: number, final = false) => headerText(committed, final);
  const line = (change: number | string) => journalLine([{ part: 'a', change }]);
  const judge = (...pieces: (string | Buffer)[]) =>
    judgeSegment(Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece))));

  it('reads whole, checked lines, and cuts only a torn append: an incomplete last line, or a NUL hole, past the last fsync', () => {
    const good = line(1) + line('two\nlines');
    const synced = HEADER_BYTES + Buffer.byteLength(good);
    const clean = judge(header(synced), good);
    expect(clean).toMatchObject({ goodBytes: synced, end: { kind: 'clean' } });
    expect(clean.units.map((unit) => unit[0]!.change)).toEqual([1, 'two\nlines']);
    // Written but never synced (so never acknowledged): a crash mid-append.
    expect(judge(header(synced), good, line(3).slice(0, -1)).end).toEqual({ kind: 'torn', reason: 'an incomplete last line (no newline)' });
    expect(judge(header(synced), good, Buffer.alloc(300), line(4)).end).toEqual({ kind: 'torn', reason: 'a hole of NUL bytes past the last fsync' });
    // The header lags one commit at most after a power loss: a whole entry past it is read.
    expect(judge(header(HEADER_BYTES + line(1).length), good).end).toEqual({ kind: 'clean' });
    // Segments are created whole (header and all): part of a header is damage, an empty file is left to the scan.
    expect(judge(createdHeader().slice(0, 20)).end).toMatchObject({ kind: 'damaged', offset: 0 });
    expect(judge('')).toMatchObject({ empty: true, end: { kind: 'clean' } });
    // Segments written before headers are read as they were.
    expect(judge(good).units).toHaveLength(2);
  });

  it(
    'calls anything else damage: a whole entry that fails its checksum anywhere, a file cut short of what was synced, bytes after a closed segment, a ' +
      'bad header',
    () => {
      const changed = line(2).replace('"a"', '"b"');
      const synced = (text: string) => HEADER_BYTES + Buffer.byteLength(text);
      // A flipped byte in the last, newline-terminated entry: not a torn write.
      expect(judge(header(synced(line(1))), line(1), changed).end).toMatchObject({
        kind: 'damaged',
        offset: synced(line(1)),
        reason: expect.stringContaining('changed after it was written'),
      });
      expect(judge(header(synced(line(1) + changed + line(3))), line(1), changed, line(3)).end).toMatchObject({
        kind: 'damaged',
        offset: synced(line(1)),
        reason: expect.stringContaining('synced and acknowledged'),
      });
      // Cut at an entry boundary, short of what was synced.
      expect(judge(header(synced(line(1) + line(2) + line(3))), line(1)).end).toMatchObject({
        kind: 'damaged',
        offset: synced(line(1)),
        reason: expect.stringContaining('cut short'),
      });
      // A NUL hole inside what was synced is damage too.
      expect(judge(header(synced(line(1) + line(2))), line(1), Buffer.alloc(line(2).length)).end).toMatchObject({ kind: 'damaged' });
      expect(judge(header(synced(line(1)), true), line(1), line(2).slice(0, 5)).end).toMatchObject({
        kind: 'damaged',
        reason: expect.stringContaining('closed whole'),
      });
      expect(judge(header(synced(line(1))).replace('committed=0', 'committed=9'), line(1)).end).toMatchObject({ kind: 'damaged', offset: 0 });
    },
  );

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
    const events = createEmitter();
    const feed = new ChangeFeed(events);
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
    expect(() =>
      feed.unit(() => {
        ledger('half');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    feed.detach();
    expect(events.listening('state-change')).toBe(false);
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
