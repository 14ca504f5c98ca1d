/**
 * serde_json's recursion limit, which Agave's RPC and Kora read JSON with: a body nested deeper
 * is refused before it is parsed (50 MB of nested arrays took JSON.parse 8–13 s and 4.4 GB).
 */
export const MAX_JSON_DEPTH = 128;

/** What a JSON text may hold before it is parsed: its depth, and how many arrays, objects and values. */
export interface JsonShapeLimits {
  depth: number;
  /** Arrays and objects, all levels together. */
  containers?: number;
  /** Containers plus the commas between elements and members: every value but the first of each container. */
  values?: number;
}

/** Which limit a text broke, first. */
export type JsonShapeBreak = 'depth' | 'containers' | 'values';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/**
 * Scans JSON as it arrives, chunk by chunk, for what JSON.parse would build: how deep it nests and
 * how many arrays, objects and values it holds (strings skipped). JSON.parse builds whatever it is
 * given, 16 million empty arrays from 48 MB (9.9 s, 1.2 GB, the event loop held throughout), so a
 * reader that bounds the structure refuses such a body at the first bracket past a limit, before
 * it has read the rest. UTF-8 bytes and UTF-16 text scan alike: every byte of a multi-byte UTF-8
 * character is 0x80 or above, never a bracket, quote or backslash.
 */
export class JsonShapeScan {
  readonly #limits: Required<JsonShapeLimits>;
  #depth = 0;
  #containers = 0;
  #commas = 0;
  #inString = false;
  /** A backslash ended the last chunk, inside a string: the next character is escaped. */
  #escaped = false;

  constructor(limits: JsonShapeLimits) {
    this.#limits = { containers: Number.POSITIVE_INFINITY, values: Number.POSITIVE_INFINITY, ...limits };
  }

  /** The limit broken so far, or null: the next chunk of UTF-8 bytes. */
  bytes(chunk: Uint8Array): JsonShapeBreak | null {
    for (let at = 0; at < chunk.length; at += 1) {
      const broken = this.#step(chunk[at]!);
      if (broken !== null) return broken;
    }
    return null;
  }

  /** The limit broken so far, or null: the next piece of text. */
  text(piece: string): JsonShapeBreak | null {
    for (let at = 0; at < piece.length; at += 1) {
      const broken = this.#step(piece.charCodeAt(at));
      if (broken !== null) return broken;
    }
    return null;
  }

  #step(code: number): JsonShapeBreak | null {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (code === BACKSLASH) this.#escaped = true;
      else if (code === QUOTE) this.#inString = false;
      return null;
    }
    if (code === QUOTE) this.#inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++this.#depth > this.#limits.depth) return 'depth';
      if (++this.#containers > this.#limits.containers) return 'containers';
      if (this.#containers + this.#commas > this.#limits.values) return 'values';
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) this.#depth -= 1;
    else if (code === COMMA && this.#containers + ++this.#commas > this.#limits.values) return 'values';
    return null;
  }
}

/** Whether JSON text nests arrays and objects deeper than `limit`; it stops at the first bracket past it. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  return new JsonShapeScan({ depth: limit }).text(text) !== null;
}
