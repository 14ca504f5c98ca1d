import { crc32 } from 'node:zlib';
import type { EmulatorSnapshot } from './snapshot.ts';
import { encodeState, encodeStateChunks } from './state-codec.ts';
import { InternalError } from '../../base/errors/internal-error.ts';

/**
 * A snapshot's checksum: CRC-32 of its state-codec JSON without the `checksum` field, as
 * `crc32:<8 hex digits>`. It is the last field, so that a writer can encode the rest a piece at a
 * time and add it at the end (sealedChunks). It finds damage (a flipped bit on disk), not intent: a
 * snapshot changed on purpose is sealed again with sealSnapshot.
 */
function snapshotChecksum(snapshot: EmulatorSnapshot): string {
  const { checksum: _checksum, ...content } = snapshot;
  return format(crc32(encodeState(content)));
}

/** The snapshot with its checksum (recomputed: after a change made on purpose). */
export function sealSnapshot<T extends EmulatorSnapshot>(snapshot: T): T {
  const { checksum: _checksum, ...content } = snapshot;
  return { ...content, checksum: snapshotChecksum(snapshot) } as T;
}

/**
 * Why a snapshot's checksum does not hold, or null when it does. A snapshot without one is
 * accepted only as version 1 (written before snapshots had checksums); a damaged key or version
 * still fails, as neither turns a version 2 snapshot into a version 1 one without its checksum.
 */
export function checksumProblem(snapshot: EmulatorSnapshot): string | null {
  if (snapshot.checksum === undefined) {
    return snapshot.version === 1 ? null : 'it has no checksum, which every snapshot since version 2 carries';
  }
  const actual = snapshotChecksum(snapshot);
  return actual === snapshot.checksum
    ? null
    : `its checksum is ${String(snapshot.checksum)}, but its content sums to ${actual}: it was changed after it was taken`;
}

/**
 * The sealed snapshot's JSON text in pieces (encodeStateChunks), the checksum computed as they go:
 * the same text as encodeState(sealSnapshot(snapshot)), without encoding it twice.
 */
export function* sealedChunks(snapshot: EmulatorSnapshot): Generator<string> {
  const { checksum: _checksum, ...content } = snapshot;
  let sum = 0;
  let held: string | null = null;
  for (const piece of encodeStateChunks(content)) {
    if (held !== null) yield held;
    sum = crc32(piece, sum);
    held = piece;
  }
  // The object's closing brace comes last: the checksum goes in before it.
  if (held === null || !held.endsWith('}')) throw new InternalError('SNAPSHOT_NOT_OBJECT', {});
  yield `${held.slice(0, -1)},"checksum":${JSON.stringify(format(sum))}}`;
}

function format(sum: number): string {
  return `crc32:${sum.toString(16).padStart(8, '0')}`;
}
