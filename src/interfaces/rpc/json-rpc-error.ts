import { withSortedKeys } from '../../base/codecs/sorted-keys.ts';

/**
 * JSON-RPC error codes: the JSON-RPC 2.0 ones, and Solana's server errors
 * (agave `rpc-client-api/src/custom_error.rs`) where the emulator can meet them.
 */
export const RPC_ERROR = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SEND_TRANSACTION_PREFLIGHT_FAILURE: -32002,
  TRANSACTION_SIGNATURE_VERIFICATION_FAILURE: -32003,
  BLOCK_NOT_AVAILABLE: -32004,
  NO_SNAPSHOT: -32008,
  TRANSACTION_HISTORY_NOT_AVAILABLE: -32011,
  SCAN_ERROR: -32012,
  UNSUPPORTED_TRANSACTION_VERSION: -32015,
  MIN_CONTEXT_SLOT_NOT_REACHED: -32016,
} as const;

/** A JSON-RPC error object. Method handlers throw it; the handler answers it as `{error}`. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }

  /** Its `data` with every object's keys sorted: Agave builds it with `json!`, a serde_json Value (kit's tests compare the order). */
  toJSON(): { code: number; message: string; data?: unknown } {
    return { code: this.code, message: this.message, ...(this.data === undefined ? {} : { data: withSortedKeys(this.data) }) };
  }
}

/**
 * -32602 for params serde could not read, as jsonrpc-core's Params::parse words it: `Invalid
 * params: <serde's error>.` (the period is its; kit's RPC tests hold a validator to "Invalid
 * params: missing field `commitment`."). A message the validator writes itself has no prefix:
 * {@link paramsError}.
 */
export function invalidParams(detail: string): JsonRpcError {
  return new JsonRpcError(RPC_ERROR.INVALID_PARAMS, `Invalid params: ${detail}.`);
}

/** -32602 in the validator's wording: `Invalid param: …` for a value the method cannot use. */
export function invalidParam(detail: string): JsonRpcError {
  return new JsonRpcError(RPC_ERROR.INVALID_PARAMS, `Invalid param: ${detail}`);
}

/** -32602 with a message used verbatim: one the validator writes itself ("Too many inputs provided; max 100", "Invalid limit; max 1000"). */
export function paramsError(message: string): JsonRpcError {
  return new JsonRpcError(RPC_ERROR.INVALID_PARAMS, message);
}
