import { constants } from 'node:fs';
import { open, readdir, truncate } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { PartChange } from '../../domain/state/change-feed.ts';
import { HEADER_BYTES, parseHeader, parseLine, type SegmentHeader } from './journal-format.ts';

export { journalLine } from './journal-format.ts';

/**
 * The write-ahead journal's files. The journal of state file `relay.json` is a series of segments
 * `relay.json.journal.00000001`, `…02`, …; a snapshot names the first segment it does not hold.
 * Their bytes: journal-format.ts.
 */
export function segmentPath(statePath: string, segment: number): string {
  return `${statePath}.journal.${String(segment).padStart(8, '0')}`;
}

/** The segments beside a state file, in order. */
export async function listSegments(statePath: string): Promise<number[]> {
  const prefix = `${basename(statePath)}.journal.`;
  let names: string[];
  try {
    names = await readdir(dirname(statePath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/**
 * How a segment ends:
 * - clean: every byte is a header or a whole, checked entry, and no fewer bytes than were synced;
 * - torn: an append a crash cut (never acknowledged: it lies past the last fsync), either an
 *   incomplete last line (no newline) or a hole of NUL bytes a power loss left; it is cut back to
 *   `goodBytes`;
 * - damaged: anything else. A whole, newline-terminated entry that fails its checksum, anywhere, is
 *   a change made after it was written; a file shorter than what was synced was cut.
 */
export type SegmentEnd = { kind: 'clean' } | { kind: 'torn'; reason: string } | { kind: 'damaged'; offset: number; reason: string };

export interface SegmentContent {
  units: PartChange[][];
  /** Null for a segment written before headers (version 1). */
  header: SegmentHeader | null;
  /** Bytes of the header and the whole, checked lines after it: what a torn tail is cut back to. */
  goodBytes: number;
  /** The file's length. */
  length: number;
  /** Whether anything follows the header: a segment a later one follows with bytes was synced whole. */
  hasEntries: boolean;
  /** No bytes at all: damage for this version's segments (created whole), a crash before the first append for version 1's. */
  empty: boolean;
  end: SegmentEnd;
}

const NEWLINE = 0x0a;

/** Reads a segment and judges how it ends. Changes nothing. */
export async function readSegment(path: string): Promise<SegmentContent> {
  // Never through a link (decision 0010); a segment is at most the compaction threshold and a little more.
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return judgeSegment(await file.readFile());
  } finally {
    await file.close();
  }
}

export function judgeSegment(bytes: Buffer): SegmentContent {
  const header = parseHeader(bytes);
  const base = { units: [] as PartChange[][], header: null, length: bytes.length };
  if (header === 'damaged') {
    return {
      ...base,
      goodBytes: 0,
      hasEntries: true,
      empty: false,
      end: { kind: 'damaged', offset: 0, reason: 'its header is not one this version writes, or fails its checksum' },
    };
  }
  if (header === 'empty') return { ...base, goodBytes: 0, hasEntries: false, empty: true, end: { kind: 'clean' } };
  const start = header === 'none' ? 0 : HEADER_BYTES;
  const committed = header === 'none' ? 0 : header.committed;
  const units: PartChange[][] = [];
  let good = start;
  while (good < bytes.length) {
    const end = bytes.indexOf(NEWLINE, good);
    if (end < 0) break;
    const unit = parseLine(bytes.subarray(good, end));
    if (!unit) break;
    units.push(unit);
    good = end + 1;
  }
  const content = { units, header: header === 'none' ? null : header, goodBytes: good, length: bytes.length, hasEntries: bytes.length > start, empty: false };
  return { ...content, end: judgeEnd(bytes, good, committed, header !== 'none' && header.final) };
}

function judgeEnd(bytes: Buffer, good: number, committed: number, final: boolean): SegmentEnd {
  if (good < committed) {
    if (good === bytes.length)
      return { kind: 'damaged', offset: good, reason: `it ends at byte ${good}, but ${committed} bytes were synced and acknowledged: it was cut short` };
    return { kind: 'damaged', offset: good, reason: `the entry there fails its checksum, inside the ${committed} bytes that were synced and acknowledged` };
  }
  if (good === bytes.length) return { kind: 'clean' };
  if (final) return { kind: 'damaged', offset: good, reason: 'bytes follow the end of a segment that was closed whole' };
  const lineEnd = bytes.indexOf(NEWLINE, good);
  if (lineEnd < 0) return { kind: 'torn', reason: 'an incomplete last line (no newline)' };
  if (bytes.subarray(good, lineEnd).includes(0)) return { kind: 'torn', reason: 'a hole of NUL bytes past the last fsync' };
  return { kind: 'damaged', offset: good, reason: 'a whole entry there fails its checksum: it was changed after it was written' };
}

/** Cuts a segment back to its whole lines (the torn tail of a crash mid-append). */
export function cutSegment(path: string, goodBytes: number): Promise<void> {
  return truncate(path, goodBytes);
}
