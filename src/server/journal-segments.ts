import { readdir, readFile, truncate } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { decodeState, encodeState } from '../controls/state-codec.ts';
import type { PartChange } from '../state/change-feed.ts';

/**
 * The write-ahead journal's files. The journal of state file `relay.json` is a series of segments
 * `relay.json.journal.00000001`, `…02`, …; a snapshot names the first segment it does not hold.
 * Each line is one atomic unit of changes: `<crc32, 8 hex digits> <JSON>\n`, the JSON an array of
 * `[part, change]` pairs in the state codec (bigints and bytes kept exact). A line is whole or it
 * is not there: a crash in the middle of an append leaves a last line without its newline, or
 * one whose checksum fails, and reading stops before it.
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

/** One unit as a journal line. */
export function journalLine(changes: readonly PartChange[]): string {
  const json = encodeState(changes.map(({ part, change }) => [part, change]));
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

export interface SegmentContent {
  units: PartChange[][];
  /** Bytes of whole, checked lines from the start: what a damaged tail is cut back to. */
  goodBytes: number;
  /** Bytes after them (a torn or damaged tail), 0 for a clean segment. */
  damagedBytes: number;
  /**
   * Whole, checked lines found after the first damaged one. A torn append (a crash mid-write)
   * leaves none, and neither does a power loss, unless pages after a hole (zeros) reached the disk
   * first; non-zero damage followed by checked lines is damage inside what was written and fsync'd.
   */
  unitsAfterDamage: number;
  /** The first damaged line holds NUL bytes: a hole a power loss left, not a changed byte. */
  damageHasHole: boolean;
}

const NEWLINE = 0x0a;

/** Reads a segment up to its first line that is not whole and checked. */
export async function readSegment(path: string): Promise<SegmentContent> {
  const bytes = await readFile(path);
  const units: PartChange[][] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(NEWLINE, start);
    if (end < 0) break;
    const unit = parseLine(bytes.subarray(start, end));
    if (!unit) break;
    units.push(unit);
    start = end + 1;
  }
  let unitsAfterDamage = 0;
  let damageHasHole = false;
  if (start < bytes.length) {
    const firstEnd = bytes.indexOf(NEWLINE, start);
    damageHasHole = bytes.subarray(start, firstEnd < 0 ? bytes.length : firstEnd).includes(0);
    for (let from = firstEnd + 1; firstEnd >= 0 && from < bytes.length; ) {
      const end = bytes.indexOf(NEWLINE, from);
      if (end < 0) break;
      if (parseLine(bytes.subarray(from, end))) unitsAfterDamage += 1;
      from = end + 1;
    }
  }
  return { units, goodBytes: start, damagedBytes: bytes.length - start, unitsAfterDamage, damageHasHole };
}

/** Cuts a segment back to its whole lines (the torn tail of a crash mid-append). */
export function cutSegment(path: string, goodBytes: number): Promise<void> {
  return truncate(path, goodBytes);
}

function parseLine(line: Buffer): PartChange[] | null {
  if (line.length < 10 || line[8] !== 0x20) return null;
  const json = line.subarray(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.subarray(0, 8).toString('latin1')) return null;
  try {
    const pairs = decodeState(json.toString('utf8'));
    if (!Array.isArray(pairs)) return null;
    return pairs.map((pair) => {
      const [part, change] = pair as [unknown, unknown];
      if (typeof part !== 'string') throw new Error('not a part name');
      return { part, change };
    });
  } catch {
    return null;
  }
}
