/**
 * A JSON value with every object's keys in sorted order, as serde_json's `Value` holds them (a
 * BTreeMap unless built with `preserve_order`): what a Rust service answers when it builds its
 * JSON through `json!` or `to_value`, as Agave builds a JSON-RPC error's `data`. Arrays keep their
 * order; other values (bigints included) are returned as they are.
 */
export function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = withSortedKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
