/** A JSON object (not null, not an array): what the views look inside of journaled bodies and ledger errors. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
