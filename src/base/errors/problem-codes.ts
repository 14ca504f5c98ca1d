import type { components } from '../../generated/relay.ts';

/** Every stable error code. The list lives in openapi/relay.yaml (`ProblemCode`). */
export type ProblemCode = components['schemas']['ProblemCode'];

export interface ProblemDefinition {
  status: number;
  title: string;
}

/**
 * One title and one HTTP status per code. `satisfies Record<ProblemCode, …>` makes TypeScript
 * refuse a code from the spec that has no entry here, and an entry for a code the spec lacks.
 */
export const PROBLEMS = {
  MALFORMED_JSON: { status: 400, title: 'The request body is not valid JSON.' },
  VALIDATION_FAILED: { status: 400, title: 'The request does not match the API contract.' },
  SNAPSHOT_REFUSED: { status: 422, title: 'The state snapshot cannot be restored; nothing was changed.' },
  INVALID_ADDRESS: { status: 400, title: 'The address is not a valid base58 public key.' },
  INVALID_QUERY: { status: 400, title: 'A query parameter is missing or invalid.' },
  INVALID_BASE64: { status: 400, title: 'signedTransaction is not valid base64.' },
  INVALID_TRANSACTION: { status: 400, title: 'signedTransaction does not decode to a Solana transaction.' },
  API_KEY_MISSING: { status: 401, title: 'The X-API-Key header is missing.' },
  API_KEY_INVALID: { status: 401, title: 'The API key is not recognised.' },
  TOKEN_MISSING: { status: 401, title: 'No bearer token was sent: send the Token from GET /Transaction/config as Authorization: Bearer <Token>.' },
  TOKEN_EXPIRED: { status: 401, title: 'The bearer token has expired.' },
  TOKEN_INVALID: { status: 401, title: 'The bearer token is malformed or its signature is invalid.' },
  ADMIN_TOKEN_REQUIRED: { status: 401, title: 'The X-Admin-Token header is required for emulator controls on this bind.' },
  ADMIN_FORBIDDEN: { status: 403, title: 'The admin token is not valid.' },
  HOST_NOT_ALLOWED: { status: 403, title: 'The Host header is not a name of this emulator.' },
  ORIGIN_NOT_ALLOWED: { status: 403, title: 'Emulator controls refuse requests from other origins.' },
  CONTROL_FORWARDED: { status: 403, title: 'Emulator controls on a loopback bind refuse requests forwarded from another machine.' },
  SLOT_IN_THE_PAST: { status: 409, title: 'The ledger cannot go back to an earlier slot.' },
  IP_BLOCKED: { status: 403, title: 'Requests from this IP address are not allowed for this app.' },
  USER_AGENT_BLOCKED: { status: 403, title: 'Requests from this user agent are not allowed for this app.' },
  ROUTE_NOT_FOUND: { status: 404, title: 'No route matches this path.' },
  ACCOUNT_NOT_FOUND: { status: 404, title: 'The account does not exist on the ledger.' },
  APP_NOT_FOUND: { status: 404, title: 'No app is configured for this environment and index.' },
  MINT_NOT_FOUND: { status: 404, title: 'The mint is not known.' },
  TRANSACTION_NOT_FOUND: { status: 404, title: 'The transaction is not known.' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'The route does not accept this method.' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is larger than the limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'The request body must be application/json.' },
  WRONG_FEE_PAYER: { status: 422, title: "The transaction's fee payer is not the relay's published FeePayer." },
  BLOCKHASH_NOT_FOUND: { status: 422, title: 'The recent blockhash is unknown or has expired.' },
  SIGNATURE_MISSING: { status: 422, title: 'A required signature other than the fee payer’s is missing.' },
  SIGNATURE_INVALID: { status: 422, title: 'A signature does not verify against the transaction message.' },
  OPERATION_MISMATCH: { status: 422, title: 'The instructions do not match the operation of this endpoint.' },
  NO_OPERATION: { status: 422, title: 'The transaction carries no operation for this endpoint.' },
  PROGRAM_NOT_ALLOWED: { status: 422, title: 'The transaction calls a program the relay does not sponsor.' },
  INSTRUCTION_NOT_ALLOWED: { status: 422, title: 'The transaction carries an instruction the relay does not sponsor.' },
  FEE_PAYER_MISUSE: { status: 422, title: 'The fee payer is used as a signer or writable account outside the allowed roles.' },
  CLOSE_AUTHORITY_NOT_FEE_PAYER: { status: 422, title: "The token account's close authority is not the fee payer." },
  CLOSE_DESTINATION_NOT_FEE_PAYER: { status: 422, title: 'The rent of a closed account must go back to the fee payer.' },
  ACCOUNT_NOT_CLOSABLE: { status: 422, title: 'The account is not a token account that can be closed.' },
  TOO_MANY_SIGNATURES: { status: 422, title: 'The transaction requires more signatures than the relay allows.' },
  COMPUTE_PRICE_TOO_HIGH: { status: 422, title: 'The compute-unit price is above the relay’s cap.' },
  COMPUTE_BUDGET_INVALID: { status: 422, title: 'A compute-budget instruction is malformed, repeated or not sponsored.' },
  COMPUTE_LIMIT_TOO_HIGH: { status: 422, title: 'The compute-unit limit is above the relay’s cap.' },
  MINT_NOT_ALLOWED: { status: 422, title: 'The relay does not sponsor this mint.' },
  VERSIONED_TRANSACTION_UNSUPPORTED: { status: 422, title: 'This versioned transaction form is not accepted by the relay.' },
  TOKEN_2022_UNSUPPORTED: { status: 422, title: 'Token-2022 accounts are not sponsored by the relay.' },
  TRANSACTION_TOO_LARGE: { status: 422, title: 'The transaction is larger than a Solana packet (1232 bytes).' },
  DURABLE_NONCE_NOT_ALLOWED: { status: 422, title: 'Durable-nonce transactions are not sponsored.' },
  DUPLICATE_INSTRUCTION: { status: 422, title: 'The transaction repeats an instruction.' },
  ACCOUNT_ALREADY_EXISTS: { status: 422, title: 'The transaction creates an account that already exists.' },
  CREATE_AND_CLOSE_NOT_ALLOWED: { status: 422, title: 'The transaction closes a token account it creates.' },
  ALREADY_PROCESSED: { status: 422, title: 'This transaction was already relayed (to another operation, or before its blockhash expired).' },
  MINT_NOT_IN_APP: { status: 400, title: 'The mint is not configured for this app.' },
  AIRDROP_DISABLED: { status: 400, title: 'Airdrops are not enabled for this mint.' },
  AIRDROP_LIMIT_EXCEEDED: { status: 400, title: 'The airdrop amount is above the maximum for this mint.' },
  REFERENCE_OR_SIGNATURE_REQUIRED: { status: 400, title: 'Either reference or signature is required.' },
  ACCOUNT_CLOSE_REFUSED: { status: 400, title: 'The account cannot be closed by the server.' },
  RATE_LIMITED: { status: 429, title: 'Too many requests for this API key.' },
  INTERNAL_ERROR: { status: 500, title: 'The emulator failed unexpectedly.' },
  QUEUE_FULL: { status: 503, title: 'The relay queue is full; retry later.' },
  ACCOUNT_PROTECTED: {
    status: 409,
    title: 'The account is one of the runtime’s own (a builtin program, a sysvar, a loaded program): the emulator does not write it.',
  },
  PROGRAM_REFUSED: { status: 422, title: 'The program cannot be deployed there; nothing was changed.' },
  EMULATOR_RESET: { status: 503, title: 'The emulator was reset while this request waited; nothing of it was kept.' },
} as const satisfies Record<ProblemCode, ProblemDefinition>;
