/**
 * Kora's errors (crates/lib/src/error.rs, Kora 2.0.5): one kind per variant, each with the text
 * Kora's `Display` gives it. Kora answers every one as a JSON-RPC call error (jsonrpsee 0.16's
 * `CallError::Failed`): code -32000, the text as the message.
 */
const FORMATS = {
  AccountNotFound: (detail: string) => `Account ${detail} not found`,
  InvalidTransaction: (detail: string) => `Invalid transaction: ${detail}`,
  ValidationError: (detail: string) => `Validation error: ${detail}`,
  UnsupportedFeeToken: (detail: string) => `Token ${detail} is not supported for fee payment`,
  InsufficientFunds: (detail: string) => `Insufficient funds: ${detail}`,
  InternalServerError: (detail: string) => `Internal error: ${detail}`,
  InvalidRequest: (detail: string) => `Invalid request: ${detail}`,
  TransactionExecutionFailed: (detail: string) => `Transaction execution failed: ${detail}`,
  SigningError: (detail: string) => `Signing error: ${detail}`,
  UsageLimitExceeded: (detail: string) => `Usage limit exceeded: ${detail}`,
} as const;

export type KoraErrorKind = keyof typeof FORMATS;

/** jsonrpsee's CALL_EXECUTION_FAILED_CODE. */
export const KORA_CALL_FAILED = -32000;

export class KoraError extends Error {
  readonly kind: KoraErrorKind;
  /**
   * What refused, for the emulator's journals and web UI (never on Kora's wire): the kora.toml key
   * (`validation.allowed_programs`, `validation.fee_payer_policy.system.allow_transfer`,
   * `kora.usage_limit`, …) or `simulation`; null for a malformed request.
   */
  readonly rule: string | null;

  constructor(kind: KoraErrorKind, detail: string, rule: string | null = null) {
    super(FORMATS[kind](detail));
    this.name = 'KoraError';
    this.kind = kind;
    this.rule = rule;
  }
}

export function invalidTransaction(detail: string, rule: string | null = null): KoraError {
  return new KoraError('InvalidTransaction', detail, rule);
}
