import type { ProblemCode } from './problem-codes.ts';
import type { RuleId } from './rule-ids.ts';

/** One field a request got wrong. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * Every member a problem body may carry, as a reader sees any RelayError. A code's own context
 * ({@link ProblemContexts}) says which of them it carries and which it must.
 */
export interface ProblemContext {
  /** Per-field validation failures. */
  errors?: FieldError[];
  /** Ledger logs, when a transaction failed. */
  logs?: string[];
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  /** Headers the response must carry (e.g. `Allow` on a 405). */
  headers?: Record<string, string>;
  /** The id of the fee-payer policy rule that refused a relay (table "Fee-payer policy" of the contract). */
  rule?: RuleId;
}

/** A code that carries nothing beyond its detail. */
type Bare = Partial<Record<keyof ProblemContext, never>>;
/** A refusal of the fee-payer policy: always names its rule. */
type PolicyRefusal = { rule: RuleId; logs?: never; errors?: never; retryAfter?: never; headers?: never };
/** A refusal of the wire or replay checks: names its rule when a relay made it (the RPC and legacy routes share the code without one). */
type MaybeRuled = { rule?: RuleId; logs?: never; errors?: never; retryAfter?: never; headers?: never };
/** A request that does not match the contract: names the fields, and the rule when the wire check made it. */
type Fields = { errors?: FieldError[]; rule?: RuleId; logs?: string[]; retryAfter?: never; headers?: never };
/**
 * Members a code's detail is made from by the message table (problem-messages.ts), never sent in the
 * body. Optional: a call site that says more in its own detail need not give them.
 */
type Described<T> = Partial<T>;
/** Come back later. */
type RetryLater = { retryAfter: number; rule?: never; logs?: never; errors?: never; headers?: never };

/**
 * The context each problem code carries, as kit's `SolanaErrorContext` does per code: the
 * constructor of RelayError asks for exactly this, and the compile fails for a code the contract
 * lists without an entry here, or an entry for a code it does not list (CONTEXTS_COMPLETE below).
 */
export interface ProblemContexts {
  MALFORMED_JSON: Bare;
  VALIDATION_FAILED: Fields;
  SNAPSHOT_REFUSED: Bare;
  INVALID_ADDRESS: Fields;
  INVALID_QUERY: Fields;
  INVALID_BASE64: Fields;
  INVALID_TRANSACTION: MaybeRuled;
  API_KEY_MISSING: Bare;
  API_KEY_INVALID: Bare;
  TOKEN_MISSING: Bare;
  TOKEN_EXPIRED: Bare;
  TOKEN_INVALID: Bare;
  ADMIN_TOKEN_REQUIRED: Bare;
  ADMIN_FORBIDDEN: Bare;
  HOST_NOT_ALLOWED: Bare;
  ORIGIN_NOT_ALLOWED: Bare;
  CONTROL_FORWARDED: Bare;
  SLOT_IN_THE_PAST: Bare;
  IP_BLOCKED: Bare;
  USER_AGENT_BLOCKED: Bare;
  ROUTE_NOT_FOUND: Bare & Described<{ method: string; path: string }>;
  ACCOUNT_NOT_FOUND: Bare;
  APP_NOT_FOUND: Bare;
  MINT_NOT_FOUND: Bare;
  TRANSACTION_NOT_FOUND: Bare;
  METHOD_NOT_ALLOWED: { headers: { Allow: string }; method?: string; rule?: never; logs?: never; errors?: never; retryAfter?: never };
  PAYLOAD_TOO_LARGE: Bare & Described<{ maxBytes: number }>;
  UNSUPPORTED_MEDIA_TYPE: Bare & Described<{ contentType: string; expected: string }>;
  WRONG_FEE_PAYER: MaybeRuled;
  BLOCKHASH_NOT_FOUND: MaybeRuled;
  SIGNATURE_MISSING: MaybeRuled;
  SIGNATURE_INVALID: MaybeRuled;
  OPERATION_MISMATCH: MaybeRuled;
  NO_OPERATION: MaybeRuled;
  PROGRAM_NOT_ALLOWED: PolicyRefusal;
  INSTRUCTION_NOT_ALLOWED: PolicyRefusal;
  FEE_PAYER_MISUSE: PolicyRefusal;
  CLOSE_AUTHORITY_NOT_FEE_PAYER: PolicyRefusal;
  CLOSE_DESTINATION_NOT_FEE_PAYER: PolicyRefusal;
  ACCOUNT_NOT_CLOSABLE: PolicyRefusal;
  TOO_MANY_SIGNATURES: PolicyRefusal;
  COMPUTE_PRICE_TOO_HIGH: PolicyRefusal;
  COMPUTE_BUDGET_INVALID: PolicyRefusal;
  COMPUTE_LIMIT_TOO_HIGH: PolicyRefusal;
  MINT_NOT_ALLOWED: PolicyRefusal;
  VERSIONED_TRANSACTION_UNSUPPORTED: PolicyRefusal;
  TOKEN_2022_UNSUPPORTED: PolicyRefusal;
  TRANSACTION_TOO_LARGE: MaybeRuled;
  DURABLE_NONCE_NOT_ALLOWED: PolicyRefusal;
  DUPLICATE_INSTRUCTION: PolicyRefusal;
  ACCOUNT_ALREADY_EXISTS: MaybeRuled;
  CREATE_AND_CLOSE_NOT_ALLOWED: PolicyRefusal;
  ALREADY_PROCESSED: MaybeRuled;
  MINT_NOT_IN_APP: Bare;
  AIRDROP_DISABLED: Bare;
  AIRDROP_LIMIT_EXCEEDED: Bare;
  REFERENCE_OR_SIGNATURE_REQUIRED: Bare;
  ACCOUNT_CLOSE_REFUSED: Bare;
  RATE_LIMITED: RetryLater;
  INTERNAL_ERROR: Bare;
  QUEUE_FULL: RetryLater & Described<{ queued: number }>;
  ACCOUNT_PROTECTED: Bare;
  PROGRAM_REFUSED: Bare;
  EMULATOR_RESET: Bare;
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when ProblemContexts and the contract's ProblemCode list differ. */
export const CONTEXTS_COMPLETE: Same<keyof ProblemContexts, ProblemCode> = true;

/** The arguments after the detail: the context, required when the code's context has a required member. */
export type ContextArgument<C extends ProblemCode> =
  Record<never, never> extends ProblemContexts[C] ? [context?: ProblemContexts[C]] : [context: ProblemContexts[C]];
