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
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && typeof (value as { $bigint?: unknown }).$bigint === 'string') return BigInt((value as { $bigint: string }).$bigint);
      if (keys.length === 1 && typeof (value as { $bytes?: unknown }).$bytes === 'string') {
        return new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'));
      }
    }
    return value;
  });
}
