/**
 * Kora's configuration, as Kora 2.0.5 reads it from `kora.toml` (crates/lib/src/config.rs at the
 * commit `@solana/kora` 0.2.1 was tagged from, f930398a): the `[validation]` and `[kora]` tables, the
 * same keys and defaults. What `getConfig` answers is made from this, field for field.
 */

export interface NonceInstructionPolicy {
  allow_initialize: boolean;
  allow_advance: boolean;
  allow_withdraw: boolean;
  allow_authorize: boolean;
}

export interface SystemInstructionPolicy {
  allow_transfer: boolean;
  allow_assign: boolean;
  allow_create_account: boolean;
  allow_allocate: boolean;
  nonce: NonceInstructionPolicy;
}

/** The same twelve flags for SPL Token and Token-2022. */
export interface TokenInstructionPolicy {
  allow_transfer: boolean;
  allow_burn: boolean;
  allow_close_account: boolean;
  allow_approve: boolean;
  allow_revoke: boolean;
  allow_set_authority: boolean;
  allow_mint_to: boolean;
  allow_initialize_mint: boolean;
  allow_initialize_account: boolean;
  allow_initialize_multisig: boolean;
  allow_freeze_account: boolean;
  allow_thaw_account: boolean;
}

export interface FeePayerPolicy {
  system: SystemInstructionPolicy;
  spl_token: TokenInstructionPolicy;
  token_2022: TokenInstructionPolicy;
}

/** `price`: a table tagged by `type`, lower-case (serde `tag = "type"`). Default: margin 0. */
export type PriceModel = { type: 'margin'; margin: number } | { type: 'fixed'; amount: number; token: string; strict: boolean } | { type: 'free' };

export interface ValidationConfig {
  max_allowed_lamports: number;
  max_signatures: number;
  allowed_programs: string[];
  allowed_tokens: string[];
  /** `"All"`, or a list of mints. */
  allowed_spl_paid_tokens: 'All' | string[];
  disallowed_accounts: string[];
  price_source: string;
  fee_payer_policy: FeePayerPolicy;
  price: PriceModel;
  token_2022: { blocked_mint_extensions: string[]; blocked_account_extensions: string[] };
  allow_durable_transactions: boolean;
}

export interface EnabledMethods {
  liveness: boolean;
  estimate_transaction_fee: boolean;
  get_supported_tokens: boolean;
  get_payer_signer: boolean;
  sign_transaction: boolean;
  sign_and_send_transaction: boolean;
  transfer_transaction: boolean;
  get_blockhash: boolean;
  get_config: boolean;
}

export interface KoraSection {
  rate_limit: number;
  max_request_body_size: number;
  enabled_methods: EnabledMethods;
  auth: { api_key: string | null; hmac_secret: string | null; max_timestamp_age: number };
  /** Where token payments go; the signer when absent. */
  payment_address: string | null;
  usage_limit: UsageLimitConfig;
}

/** `[kora.usage_limit]` (config.rs UsageLimitConfig): every key required when the table is there; off by default. */
export interface UsageLimitConfig {
  enabled: boolean;
  cache_url: string | null;
  /** 0: unlimited. */
  max_transactions: number;
  fallback_if_unavailable: boolean;
}

export interface KoraConfig {
  validation: ValidationConfig;
  kora: KoraSection;
}

/** The method names as Kora registers them, by their `enabled_methods` key. */
export const KORA_METHOD_KEYS = {
  liveness: 'liveness',
  estimateTransactionFee: 'estimate_transaction_fee',
  getSupportedTokens: 'get_supported_tokens',
  getPayerSigner: 'get_payer_signer',
  signTransaction: 'sign_transaction',
  signAndSendTransaction: 'sign_and_send_transaction',
  transferTransaction: 'transfer_transaction',
  getBlockhash: 'get_blockhash',
  getConfig: 'get_config',
} as const satisfies Record<string, keyof EnabledMethods>;

export type KoraMethodName = keyof typeof KORA_METHOD_KEYS;

const ALL_FALSE_TOKEN_POLICY: TokenInstructionPolicy = {
  allow_transfer: false,
  allow_burn: false,
  allow_close_account: false,
  allow_approve: false,
  allow_revoke: false,
  allow_set_authority: false,
  allow_mint_to: false,
  allow_initialize_mint: false,
  allow_initialize_account: false,
  allow_initialize_multisig: false,
  allow_freeze_account: false,
  allow_thaw_account: false,
};

/** Every fee-payer flag false: Kora's default, the fee payer may do nothing but pay. */
export function defaultFeePayerPolicy(): FeePayerPolicy {
  return {
    system: {
      allow_transfer: false,
      allow_assign: false,
      allow_create_account: false,
      allow_allocate: false,
      nonce: { allow_initialize: false, allow_advance: false, allow_withdraw: false, allow_authorize: false },
    },
    spl_token: { ...ALL_FALSE_TOKEN_POLICY },
    token_2022: { ...ALL_FALSE_TOKEN_POLICY },
  };
}

/** Kora's defaults for the `[kora]` table: every method enabled, no auth, 100 requests a second, 2 MiB bodies. */
export function defaultKoraSection(): KoraSection {
  return {
    rate_limit: 100,
    max_request_body_size: 2 * 1024 * 1024,
    enabled_methods: {
      liveness: true,
      estimate_transaction_fee: true,
      get_supported_tokens: true,
      get_payer_signer: true,
      sign_transaction: true,
      sign_and_send_transaction: true,
      transfer_transaction: true,
      get_blockhash: true,
      get_config: true,
    },
    auth: { api_key: null, hmac_secret: null, max_timestamp_age: 300 },
    payment_address: null,
    usage_limit: { enabled: false, cache_url: null, max_transactions: 0, fallback_if_unavailable: false },
  };
}
