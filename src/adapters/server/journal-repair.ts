import { copyFile, open, rename } from 'node:fs/promises';
import { headerText } from './journal-format.ts';
import { listSegments, segmentPath } from './journal-segments.ts';
import { scanJournal } from './journal-replay.ts';
import { StateDamageError } from './state-damage.ts';

/** What `--accept-state-loss` cut: the segment, where, what it held past the cut and in later segments, and where the copies are. */
export interface JournalLoss {
  file: string;
  offset: number;
  lostBytes: number;
  copies: string[];
}

/**
 * `--accept-state-loss`: a journal damaged at a known byte (cut short, or an entry that fails its
 * checksum inside what was synced) is cut there, so the start serves the state up to the cut. Each
 * file it changes or removes is copied first (`<segment>.damaged-<time>`); the damaged segment's
 * header is written again for its new length, since a `truncate` alone leaves the header saying
 * more bytes were synced, and the next start refuses it the same way (issue 45, item 7). Damage
 * with no byte to cut at (a missing segment, a file with no header) is left to refuse as before.
 */
export async function acceptJournalLoss(statePath: string, from: number, strict: boolean | null): Promise<JournalLoss[]> {
  const losses: JournalLoss[] = [];
  for (let round = 0; round < 64; round += 1) {
    try {
      await scanJournal(statePath, from, strict);
      return losses;
    } catch (error) {
      if (!(error instanceof StateDamageError) || error.offset === null || error.offset === 0) throw error;
      losses.push(await cutAt(statePath, error.file, error.offset));
    }
  }
  return losses;
}

async function cutAt(statePath: string, file: string, offset: number): Promise<JournalLoss> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const segments = await listSegments(statePath);
  const damaged = segments.find((segment) => segmentPath(statePath, segment) === file);
  const later = segments.filter((segment) => damaged !== undefined && segment > damaged).map((segment) => segmentPath(statePath, segment));
  const copies: string[] = [];
  let lostBytes = 0;
  const copy = `${file}.damaged-${stamp}`;
  await copyFile(file, copy);
  copies.push(copy);
  const handle = await open(file, 'r+');
  try {
    const { size } = await handle.stat();
    lostBytes += size - offset;
    await handle.truncate(offset);
    // The header's `committed` said what was synced: it says the cut now, and the segment is open again.
    await handle.write(headerText(offset, false), 0, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  for (const path of later) {
    const aside = `${path}.damaged-${stamp}`;
    const stats = await open(path, 'r').then(async (opened) => {
      const { size } = await opened.stat();
      await opened.close();
      return size;
    });
    lostBytes += stats;
    await rename(path, aside);
    copies.push(aside);
  }
  return { file, offset, lostBytes, copies };
}
