import { crc32 } from 'node:zlib';
import { decodeState, encodeState } from '../../domain/state/state-codec.ts';
import type { PartChange } from '../../domain/state/change-feed.ts';

/**
 * The bytes of a journal segment.
 *
 * A segment begins with a header of fixed length, rewritten in place:
 * `relay-emulator-journal 2 committed=<12 digits> final=<0|1> crc32=<8 hex>\n`.
 * - `committed` is the segment's length after its last fsync. The writer rewrites it after each
 *   fsync and before it answers anyone, so a file shorter than it (cut at an entry boundary or
 *   not), or changed before it, lost acknowledged entries: damage, not a torn append. It may lag by
 *   one group commit after a power loss, never lead.
 * - `final=1`: the writer moved on to the next segment and synced this one whole; nothing follows
 *   `committed`.
 *
 * Then one line per atomic unit of changes: `<crc32, 8 hex digits> <JSON>\n`, the JSON an array of
 * `[part, change]` pairs in the state codec (bigints and bytes kept exact).
 *
 * Segments written before headers (version 1) begin with an entry; they are read without the
 * checks the header allows.
 */
const HEADER_PREFIX = 'relay-emulator-journal 2 ';
export const HEADER_BYTES = headerText(0, false).length;
const HEADER_PATTERN = /^relay-emulator-journal 2 committed=(\d{12}) final=([01]) crc32=([0-9a-f]{8})\n$/;

export interface SegmentHeader {
  committed: number;
  final: boolean;
}

export function headerText(committed: number, final: boolean): string {
  const body = `${HEADER_PREFIX}committed=${String(committed).padStart(12, '0')} final=${final ? 1 : 0}`;
  return `${body} crc32=${sum(body)}\n`;
}

/** The header a segment is created with. */
export function createdHeader(): string {
  return headerText(HEADER_BYTES, false);
}

/**
 * The header at the start of `bytes`: a header, 'none' (a version 1 segment, which begins with an
 * entry), 'empty' (no bytes), or 'damaged'. A segment is created whole, header and all (written
 * beside its name, then linked to it), so no crash leaves part of a header.
 */
export function parseHeader(bytes: Buffer): SegmentHeader | 'none' | 'empty' | 'damaged' {
  if (bytes.length === 0) return 'empty';
  if (bytes[0] !== HEADER_PREFIX.charCodeAt(0)) return /^[0-9a-f]{8} $/.test(bytes.subarray(0, 9).toString('latin1')) ? 'none' : 'damaged';
  const match = HEADER_PATTERN.exec(bytes.subarray(0, HEADER_BYTES).toString('latin1'));
  if (!match || sum(match[0].slice(0, match[0].indexOf(' crc32='))) !== match[3]) return 'damaged';
  return { committed: Number(match[1]), final: match[2] === '1' };
}

/** One unit as a journal line. */
export function journalLine(changes: readonly PartChange[]): string {
  const json = encodeState(changes.map(({ part, change }) => [part, change]));
  return `${sum(json)} ${json}\n`;
}

/** The unit a line (without its newline) holds, or null when it is not whole and checked. */
export function parseLine(line: Buffer): PartChange[] | null {
  if (line.length < 10 || line[8] !== 0x20) return null;
  const json = line.subarray(9);
  if (sum(json) !== line.subarray(0, 8).toString('latin1')) return null;
  try {
    const pairs = decodeState(json.toString('utf8'));
    if (!Array.isArray(pairs)) return null;
    const changes: PartChange[] = [];
    for (const pair of pairs) {
      const [part, change] = pair as [unknown, unknown];
      if (typeof part !== 'string') return null;
      changes.push({ part, change });
    }
    return changes;
  } catch {
    return null;
  }
}

function sum(data: string | Buffer): string {
  return crc32(data).toString(16).padStart(8, '0');
}
