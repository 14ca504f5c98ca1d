import { rm } from 'node:fs/promises';
import type { StateRegistry } from '../../domain/state/state-registry.ts';
import { cutSegment, listSegments, readSegment, segmentPath, type SegmentContent } from './journal-segments.ts';
import { StateDamageError } from './state-damage.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

export interface JournalScan {
  statePath: string;
  /** Segments before the snapshot's first: leftovers of a compaction a crash interrupted. */
  obsolete: number[];
  live: { segment: number; path: string; content: SegmentContent }[];
}

/**
 * Reads the journal after a snapshot and judges it, changing nothing (journal-segments.ts says how
 * a segment may end). Throws StateDamageError for:
 * - damage in any segment;
 * - a torn tail in a segment that a later one follows with entries (it was synced whole first);
 * - a segment missing: `from` (the snapshot's first, which the writer creates before the snapshot
 *   names it), the first one when there is no snapshot, or one between two others; a segment
 *   empty or without its header. Checked when the files are this version's (`strict`: true for a
 *   version 2 snapshot, false for a version 1 one, null without a snapshot, when a segment with a
 *   header decides): earlier versions created segments without headers, only when they wrote;
 * - the newest segment missing: the last one found was closed with `final=1`, which the writer
 *   writes only once the segment after it exists (a rotation, or a restart that opened a new one).
 */
export async function scanJournal(statePath: string, from: number, strict: boolean | null): Promise<JournalScan> {
  const segments = await listSegments(statePath);
  const live = [];
  for (const segment of segments.filter((candidate) => candidate >= from)) {
    const path = segmentPath(statePath, segment);
    live.push({ segment, path, content: await readSegment(path) });
  }
  const remedy = (path: string, offset: number) =>
    `To start from what precedes it (its first ${offset} bytes; the rest of it and the segments after it are lost), start once with ` +
    `--accept-state-loss, which cuts it there, writes its header again and keeps a copy of each file it changes; or ${startEmpty(statePath)}`;
  for (const [index, { path, content }] of live.entries()) {
    const { end } = content;
    if (end.kind === 'damaged') throw new StateDamageError(path, end.offset, end.reason, remedy(path, end.offset));
    const followed = live.slice(index + 1).find((later) => later.content.hasEntries);
    if (end.kind === 'torn' && followed) {
      throw new StateDamageError(
        path,
        content.goodBytes,
        `${end.reason}, yet ${followed.path} holds entries written after it, so it was synced whole`,
        remedy(path, content.goodBytes),
      );
    }
  }
  // This version's files: a snapshot of version 2, or (before any snapshot) a segment with a header,
  // or an empty one (which only a cut makes now; version 1's held nothing, so nothing is lost by refusing it).
  if (strict ?? live.some(({ content }) => content.header !== null || content.empty)) {
    let headed = false;
    for (const { path, content } of live) {
      if (content.empty)
        throw new StateDamageError(path, 0, 'it is empty, yet every segment is created whole with its header: it was cut', remedyOf(statePath));
      if (content.header === null && headed)
        throw new StateDamageError(path, 0, 'it has no header, yet the segments before it have theirs', remedyOf(statePath));
      headed ||= content.header !== null;
    }
    const first = from > 0 ? from : 1;
    let missing: number | null = live.length === 0 && from > 0 ? from : null;
    let reason =
      from > 0
        ? `it is missing, yet the snapshot in ${statePath} covers the journal up to segment ${from}, which the journal goes on from`
        : 'it is missing, yet the journal goes on after it';
    for (const [index, { segment }] of live.entries()) {
      if (segment !== first + index) {
        missing = first + index;
        break;
      }
    }
    // The newest segment: its predecessor was closed with final=1 once it existed (a restart, a rotation).
    const last = live.at(-1);
    if (missing === null && last?.content.header?.final) {
      missing = last.segment + 1;
      reason = `it is missing, yet ${last.path} was closed for it (final=1): the journal went on there`;
    }
    if (missing !== null) {
      throw new StateDamageError(
        segmentPath(statePath, missing),
        null,
        reason,
        `The entries it held are lost: restore it from a copy, or ${startEmpty(statePath)}`,
      );
    }
  }
  return { statePath, obsolete: segments.filter((segment) => segment < from), live };
}

export interface ReplayResult {
  /** Units (journal lines) replayed. */
  replayed: number;
  /** Bytes cut from the end of the journal (a torn append). */
  discardedBytes: number;
  /** The highest segment found, 0 when there is none. */
  lastSegment: number;
}

/**
 * Acts on a scan that passed: deletes the obsolete segments, cuts a torn tail, then gives each part
 * its own changes, in order (parts are independent of one another: a part's state depends only on
 * its own changes), to redo: see StatefulPart.replay.
 */
export async function replayJournal(scan: JournalScan, state: StateRegistry): Promise<ReplayResult> {
  const byPart = new Map<string, unknown[]>();
  let replayed = 0;
  let discardedBytes = 0;
  for (const { units } of scan.live.map(({ content }) => content)) {
    for (const unit of units) {
      for (const { part } of unit) {
        const known = state.get(part);
        if (!known?.replay) throw new InternalError('JOURNAL_PART_UNKNOWN', { part, known: known !== undefined });
      }
    }
  }
  for (const segment of scan.obsolete) await rm(segmentPath(scan.statePath, segment), { force: true });
  for (const { path, content } of scan.live) {
    if (content.end.kind === 'torn') {
      await cutSegment(path, content.goodBytes);
      discardedBytes += content.length - content.goodBytes;
    }
    for (const unit of content.units) {
      for (const { part: key, change } of unit) {
        const part = state.get(key)!.name; // Known: checked above.
        let changes = byPart.get(part);
        if (!changes) byPart.set(part, (changes = []));
        changes.push(change);
      }
      replayed += 1;
    }
  }
  for (const part of state.parts()) {
    const changes = byPart.get(part.name);
    if (changes && part.replay) await part.replay(changes);
  }
  const all = [...scan.obsolete, ...scan.live.map(({ segment }) => segment)];
  return { replayed, discardedBytes, lastSegment: all.at(-1) ?? 0 };
}

function startEmpty(statePath: string): string {
  return `move ${statePath} and its journal away to start empty.`;
}

function remedyOf(statePath: string): string {
  return `Restore it from a copy, or ${startEmpty(statePath)}`;
}
