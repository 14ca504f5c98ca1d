import { rm } from 'node:fs/promises';
import type { StateRegistry } from '../state/state-registry.ts';
import { cutSegment, listSegments, readSegment, segmentPath } from './journal-segments.ts';

export interface ReplayOptions {
  statePath: string;
  /** The first segment the snapshot does not hold (0 without a snapshot: every segment). */
  from: number;
  state: StateRegistry;
}

export interface ReplayResult {
  /** Units (journal lines) replayed. */
  replayed: number;
  /** Bytes cut from the last segment's end (a torn append). */
  discardedBytes: number;
  /** The highest segment found, 0 when there is none. */
  lastSegment: number;
}

/**
 * Replays the journal onto a restored snapshot: segments before `from` are leftovers of a snapshot
 * that was written but not yet followed by their deletion, and are deleted; the others are read in
 * order. The last segment may end in a torn line (the process died mid-append, before anyone was
 * told): it is cut off, with whatever follows it when that is a hole a power loss left. Damage
 * anywhere else, or a changed line with whole entries after it, means the files were changed by
 * something else, and the start is refused rather than lose acknowledged state silently.
 *
 * Each part gets its own changes, in order (parts are independent of one another: a part's state
 * depends only on its own changes), and redoes them: see StatefulPart.replay.
 */
export async function replayJournal(options: ReplayOptions): Promise<ReplayResult> {
  const segments = await listSegments(options.statePath);
  const byPart = new Map<string, unknown[]>();
  let replayed = 0;
  let discardedBytes = 0;
  const live = segments.filter((segment) => segment >= options.from);
  for (const segment of segments) {
    if (segment < options.from) await rm(segmentPath(options.statePath, segment), { force: true });
  }
  for (const [index, segment] of live.entries()) {
    const path = segmentPath(options.statePath, segment);
    const content = await readSegment(path);
    if (content.damagedBytes > 0) {
      if (index < live.length - 1) {
        throw new Error(`the journal segment ${path} is damaged at byte ${content.goodBytes} (it is not the last one, so this is not a torn append)`);
      }
      if (content.unitsAfterDamage > 0 && !content.damageHasHole) {
        // Cutting here would drop entries that were written whole after it, acknowledged ones among them.
        throw new Error(
          `the journal segment ${path} is damaged at byte ${content.goodBytes}, and ${content.unitsAfterDamage} whole entr${content.unitsAfterDamage === 1 ? 'y follows' : 'ies follow'} (this is not a torn append)`,
        );
      }
      await cutSegment(path, content.goodBytes);
      discardedBytes = content.damagedBytes;
    }
    for (const unit of content.units) {
      for (const { part, change } of unit) {
        let changes = byPart.get(part);
        if (!changes) byPart.set(part, (changes = []));
        changes.push(change);
      }
      replayed += 1;
    }
  }
  for (const part of byPart.keys()) {
    const known = options.state.get(part);
    if (!known?.replay) throw new Error(`the journal holds changes of "${part}", which this emulator ${known ? 'cannot replay' : 'does not have'}`);
  }
  for (const part of options.state.parts()) {
    const changes = byPart.get(part.name);
    if (changes && part.replay) await part.replay(changes);
  }
  return { replayed, discardedBytes, lastSegment: segments.at(-1) ?? 0 };
}
