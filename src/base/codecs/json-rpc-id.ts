/** A JSON-RPC 2.0 request's `id`: a string, a number or null (the spec's words), echoed in the answer. */
export type JsonRpcId = string | number | null;

/**
 * The one rule the Solana RPC and Kora judge an `id` by (issue 45, item 10): a string, a finite
 * number (fractions too) or null. A call with any other `id` (an object, an array, a boolean) is
 * an invalid request, answered -32600 with id null, since there is no id to echo.
 */
export function isJsonRpcId(id: unknown): id is JsonRpcId {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}
