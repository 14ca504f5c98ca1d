import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../base/codecs/json-shape.ts';

/**
 * JSON for state snapshots. Snapshots hold bigints (lamports, slots, fees) and byte arrays
 * (account data, return data), which plain JSON cannot carry; they are written as
 * `{"$bigint": "123"}` and `{"$bytes": "<base64>"}` and read back as bigint and Uint8Array.
 */
export function encodeState(value: unknown): string {
  return JSON.stringify(value, function replacer(this: unknown, key: string, raw: unknown) {
    // JSON.stringify calls toJSON (Buffer) before the replacer; read the original value instead.
    const original = (this as Record<string, unknown>)[key];
    if (typeof original === 'bigint') return { $bigint: original.toString() };
    if (original instanceof Uint8Array) return { $bytes: Buffer.from(original).toString('base64') };
    return raw;
  });
}

export function decodeState(text: string): unknown {
  // A SyntaxError, as JSON.parse's own: the callers say the file is not a state.
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new SyntaxError(`it nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
  return JSON.parse(text, revive);
}

/** The same as decodeState, for a value already parsed as plain JSON (a request body): the `$bigint` and `$bytes` forms revived in place. */
export function reviveState(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = reviveState(value[index]);
    return value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) record[key] = reviveState(record[key]);
  return revive('', record);
}

function revive(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && typeof (value as { $bigint?: unknown }).$bigint === 'string') return BigInt((value as { $bigint: string }).$bigint);
    if (keys.length === 1 && typeof (value as { $bytes?: unknown }).$bytes === 'string') {
      return new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'));
    }
  }
  return value;
}

/**
 * The same JSON text as encodeState(value), in pieces: plain objects and arrays are opened up to
 * `depth` levels, everything deeper is one piece. A writer can hand the event loop back between
 * pieces, so that encoding a large state never blocks for long (the state file's snapshots).
 */
export function* encodeStateChunks(value: unknown, depth = 4): Generator<string> {
  if (depth > 0 && Array.isArray(value)) {
    yield '[';
    for (const [index, item] of value.entries()) {
      if (index > 0) yield ',';
      // As JSON.stringify does: what has no JSON form is null inside an array.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* encodeStateChunks(item, depth - 1);
    }
    yield ']';
    return;
  }
  if (depth > 0 && isPlainObject(value)) {
    yield '{';
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* encodeStateChunks(item, depth - 1);
    }
    yield '}';
    return;
  }
  yield encodeState(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
