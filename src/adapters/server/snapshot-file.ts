import { open, rename, rm } from 'node:fs/promises';
import { boundedReadProblem, isMissing, readBoundedText } from '../../base/disk/read-file.ts';
import { dirname } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EmulatorSnapshot } from '../../domain/state/snapshot.ts';
import { checksumProblem, sealedChunks } from '../../domain/state/snapshot-seal.ts';
import { decodeState } from '../../domain/state/state-codec.ts';
import { syncDirectory } from './journal-writer.ts';
import { StateDamageError } from './state-damage.ts';
import { ensureDirectory } from '../../base/disk/folders.ts';

/** The state file's content: a sealed snapshot, and the first journal segment it does not hold. */
export type StateFileContent = EmulatorSnapshot & { journal?: { from: number } };

/** A JavaScript string holds at most ~512 MiB: no state file of ours is larger. */
const MAX_STATE_FILE_BYTES = 512 * 1024 * 1024;

/** Longest stretch a snapshot encodes before it hands the event loop back, in ms. */
const ENCODE_SLICE_MS = 4;

/**
 * The state file, or null when there is none. Throws StateDamageError when it is not JSON, or its
 * checksum does not hold (snapshot-seal.ts). Another kind of file altogether (no format of ours, no
 * checksum) is left for checkSnapshot to refuse as such.
 */
export async function readStateFile(path: string): Promise<StateFileContent | null> {
  let text: string;
  try {
    // Bounded, never through a link, never a FIFO (decision 0010): a state file is a regular file of ours.
    text = readBoundedText(path, MAX_STATE_FILE_BYTES);
  } catch (error) {
    if (isMissing(error)) return null;
    throw new Error(`${path} ${boundedReadProblem(error)}; nothing was changed`);
  }
  const remedy = 'Restore it from a copy, or move it and its journal away to start empty.';
  let content: StateFileContent;
  try {
    content = decodeState(text) as StateFileContent;
  } catch (error) {
    throw new StateDamageError(path, null, `it is not JSON (${(error as Error).message})`, remedy);
  }
  // One that names itself a snapshot, or carries a checksum (a damaged name is still damage).
  const sealed = typeof content === 'object' && content !== null && (content.format === 'relay-emulator-state' || 'checksum' in content);
  const problem = sealed ? checksumProblem(content) : null;
  if (problem) throw new StateDamageError(path, null, problem, remedy);
  return content;
}

/**
 * Writes the state file beside itself, sealed, a slice of encoding at a time, fsyncs it, and
 * renames it over the old one; returns its size. A write that fails (a full disk) removes what it
 * had written: the old file stays, and no temporary is left behind.
 */
export async function writeStateFile(path: string, content: StateFileContent, options: { fsync: boolean }): Promise<number> {
  await ensureDirectory(dirname(path));
  const temporary = `${path}.${process.pid}.tmp`;
  let written = 0;
  try {
    // Made exclusively (never through a link planted at the name); one a crash of this PID left goes first.
    await rm(temporary, { force: true });
    const file = await open(temporary, 'wx');
    try {
      let buffered: string[] = [];
      let size = 0;
      let sliceStart = performance.now();
      for (const piece of sealedChunks(content)) {
        buffered.push(piece);
        size += piece.length;
        written += Buffer.byteLength(piece);
        if (size >= 1 << 20) {
          await file.appendFile(buffered.join(''));
          buffered = [];
          size = 0;
        }
        if (performance.now() - sliceStart > ENCODE_SLICE_MS) {
          await nextTurn();
          sliceStart = performance.now();
        }
      }
      await file.appendFile(buffered.join(''));
      if (options.fsync) await file.datasync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  if (options.fsync) await syncDirectory(dirname(path));
  return written;
}
