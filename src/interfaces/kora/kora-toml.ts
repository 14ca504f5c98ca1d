import { createRequire } from 'node:module';
import { InternalError } from '../../base/errors/internal-error.ts';
import {
  defaultFeePayerPolicy,
  defaultKoraSection,
  type EnabledMethods,
  type FeePayerPolicy,
  type KoraConfig,
  type PriceModel,
  type TokenInstructionPolicy,
  type ValidationConfig,
} from './kora-config.ts';
import { isAddress } from './kora-instructions.ts';
import { unknownExtension } from './kora-token2022.ts';

type Table = Record<string, unknown>;

/**
 * Reads a `kora.toml` as Kora 2.0.5 does: `[validation]` and `[kora]` are required, and within them
 * the keys Kora has no default for; every other key takes Kora's default. What this emulator cannot
 * honour offline is refused here, by name, rather than ignored: a price from Jupiter (`Mock` prices
 * every token as Kora's mock oracle does), a Redis cache, and Prometheus metrics. Usage limits are
 * counted by the emulator itself (src/interfaces/kora/kora-usage.ts).
 */
export function readKoraToml(text: string, source = 'kora.toml'): KoraConfig {
  // Required here: only an emulator given a kora.toml loads the TOML reader.
  const { parse, TomlError } = createRequire(import.meta.url)('smol-toml') as typeof import('smol-toml');
  let document: Table;
  try {
    document = parse(text) as Table;
  } catch (error) {
    const where = error instanceof TomlError ? ` (line ${error.line}, column ${error.column})` : '';
    throw invalid(source, `it is not TOML${where}: ${(error as Error).message.split('\n')[0]}`);
  }
  const reader = new Reader(source);
  const validation = reader.table(document, 'validation', true);
  const kora = reader.table(document, 'kora', true);
  const metrics = reader.table(document, 'metrics', false);
  if (metrics && reader.bool(metrics, 'metrics.enabled', false)) reader.refuse('metrics.enabled', 'the emulator serves no Prometheus metrics');
  const config: KoraConfig = { validation: reader.validation(validation!), kora: { ...defaultKoraSection() } };
  const section = config.kora;
  section.rate_limit = reader.integer(kora!, 'kora.rate_limit');
  section.max_request_body_size = reader.integer(kora!, 'kora.max_request_body_size', section.max_request_body_size);
  const methods = reader.table(kora!, 'kora.enabled_methods', false);
  if (methods)
    for (const key of Object.keys(section.enabled_methods) as (keyof EnabledMethods)[]) {
      section.enabled_methods[key] = reader.bool(methods, `kora.enabled_methods.${key}`, true);
    }
  const auth = reader.table(kora!, 'kora.auth', false);
  if (auth) {
    section.auth = {
      api_key: reader.string(auth, 'kora.auth.api_key', null),
      hmac_secret: reader.string(auth, 'kora.auth.hmac_secret', null),
      max_timestamp_age: reader.integer(auth, 'kora.auth.max_timestamp_age', 300),
    };
  }
  section.payment_address = reader.string(kora!, 'kora.payment_address', null);
  const cache = reader.table(kora!, 'kora.cache', false);
  if (cache && reader.bool(cache, 'kora.cache.enabled', false)) reader.refuse('kora.cache.enabled', 'the emulator keeps no Redis cache');
  const usage = reader.table(kora!, 'kora.usage_limit', false);
  if (usage) {
    const enabled = reader.bool(usage, 'kora.usage_limit.enabled', undefined);
    const fallback = reader.bool(usage, 'kora.usage_limit.fallback_if_unavailable', undefined);
    section.usage_limit = {
      enabled,
      cache_url: reader.string(usage, 'kora.usage_limit.cache_url', null),
      max_transactions: reader.integer(usage, 'kora.usage_limit.max_transactions'),
      fallback_if_unavailable: fallback,
    };
  }
  return config;
}

function invalid(source: string, problem: string): InternalError {
  return new InternalError('KORA_CONFIG_INVALID', { problem: `${source}: ${problem}` });
}

const TOKEN_POLICY_KEYS = Object.keys(defaultFeePayerPolicy().spl_token) as (keyof TokenInstructionPolicy)[];

class Reader {
  constructor(private readonly source: string) {}

  refuse(key: string, why: string): never {
    throw invalid(this.source, `${key} cannot be honoured: ${why}.`);
  }

  #value(table: Table, key: string): unknown {
    return table[key.slice(key.lastIndexOf('.') + 1)];
  }

  table(table: Table, key: string, required: boolean): Table | undefined {
    const value = this.#value(table, key);
    if (value === undefined) {
      if (required) throw invalid(this.source, `[${key}] is missing`);
      return undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(this.source, `${key} must be a table`);
    return value as Table;
  }

  integer(table: Table, key: string, fallback?: number): number {
    const value = this.#value(table, key);
    if (value === undefined && fallback !== undefined) return fallback;
    if (value === undefined) throw invalid(this.source, `${key} is missing`);
    if (typeof value === 'bigint') return Number(value);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid(this.source, `${key} must be a non-negative integer`);
    return value;
  }

  /** A boolean; without `fallback`, a required one. */
  bool(table: Table, key: string, fallback?: boolean): boolean {
    const value = this.#value(table, key);
    if (value === undefined && fallback === undefined) throw invalid(this.source, `${key} is missing`);
    if (value === undefined) return fallback!;
    if (typeof value !== 'boolean') throw invalid(this.source, `${key} must be true or false`);
    return value;
  }

  string(table: Table, key: string, fallback: string | null): string | null {
    const value = this.#value(table, key);
    if (value === undefined) return fallback;
    if (typeof value !== 'string') throw invalid(this.source, `${key} must be a string`);
    return value;
  }

  strings(table: Table, key: string): string[] {
    const value = this.#value(table, key);
    if (value === undefined) throw invalid(this.source, `${key} is missing`);
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw invalid(this.source, `${key} must be a list of strings`);
    return value as string[];
  }

  /** A list of addresses (Kora's config parses each as a Pubkey): one that is not refused here, not at the first use that needs it. */
  addresses(table: Table, key: string): string[] {
    const addresses = this.strings(table, key);
    const wrong = addresses.find((address) => !isAddress(address));
    if (wrong !== undefined) throw invalid(this.source, `${key}: ${JSON.stringify(wrong)} is not an address (32 bytes of base58)`);
    return addresses;
  }

  validation(table: Table): ValidationConfig {
    const paid = this.#value(table, 'allowed_spl_paid_tokens');
    const priceSource = this.string(table, 'validation.price_source', null);
    if (priceSource === null) throw invalid(this.source, 'validation.price_source is missing');
    if (priceSource !== 'Mock') this.refuse('validation.price_source', `"${priceSource}" needs the network; use "Mock"`);
    const token2022 = this.table(table, 'validation.token_2022', false);
    const blocked = {
      blocked_mint_extensions: token2022?.blocked_mint_extensions === undefined ? [] : this.strings(token2022, 'validation.token_2022.blocked_mint_extensions'),
      blocked_account_extensions:
        token2022?.blocked_account_extensions === undefined ? [] : this.strings(token2022, 'validation.token_2022.blocked_account_extensions'),
    };
    const unknown = unknownExtension(blocked);
    if (unknown !== null) throw invalid(this.source, unknown);
    const allowedPaid = paid === 'All' ? 'All' : this.strings(table, 'validation.allowed_spl_paid_tokens');
    return {
      max_allowed_lamports: this.integer(table, 'validation.max_allowed_lamports'),
      max_signatures: this.integer(table, 'validation.max_signatures'),
      allowed_programs: this.addresses(table, 'validation.allowed_programs'),
      allowed_tokens: this.strings(table, 'validation.allowed_tokens'),
      allowed_spl_paid_tokens: allowedPaid,
      disallowed_accounts: this.strings(table, 'validation.disallowed_accounts'),
      price_source: priceSource,
      fee_payer_policy: this.feePayerPolicy(this.table(table, 'validation.fee_payer_policy', false)),
      price: this.price(this.table(table, 'validation.price', false), allowedPaid),
      token_2022: blocked,
      allow_durable_transactions: this.bool(table, 'validation.allow_durable_transactions', false),
    };
  }

  feePayerPolicy(table: Table | undefined): FeePayerPolicy {
    const policy = defaultFeePayerPolicy();
    if (!table) return policy;
    const system = this.table(table, 'validation.fee_payer_policy.system', false);
    if (system) {
      for (const key of ['allow_transfer', 'allow_assign', 'allow_create_account', 'allow_allocate'] as const) {
        policy.system[key] = this.bool(system, `validation.fee_payer_policy.system.${key}`, false);
      }
      const nonce = this.table(system, 'validation.fee_payer_policy.system.nonce', false);
      if (nonce)
        for (const key of Object.keys(policy.system.nonce) as (keyof typeof policy.system.nonce)[]) {
          policy.system.nonce[key] = this.bool(nonce, `validation.fee_payer_policy.system.nonce.${key}`, false);
        }
    }
    for (const program of ['spl_token', 'token_2022'] as const) {
      const flags = this.table(table, `validation.fee_payer_policy.${program}`, false);
      if (flags) for (const key of TOKEN_POLICY_KEYS) policy[program][key] = this.bool(flags, `validation.fee_payer_policy.${program}.${key}`, false);
    }
    return policy;
  }

  /** `[validation.price]`, default a margin of 0; checked as Kora's config validator does at start (a negative margin, a fixed price's token). */
  price(table: Table | undefined, paid: ValidationConfig['allowed_spl_paid_tokens']): PriceModel {
    if (!table) return { type: 'margin', margin: 0 };
    const type = this.string(table, 'validation.price.type', null);
    if (type === 'free') return { type: 'free' };
    if (type === 'margin') {
      const margin = this.#value(table, 'margin') ?? 0;
      if (typeof margin !== 'number') throw invalid(this.source, 'validation.price.margin must be a number');
      if (margin < 0) throw invalid(this.source, 'Margin cannot be negative');
      return { type: 'margin', margin };
    }
    if (type === 'fixed') {
      const token = this.string(table, 'validation.price.token', null);
      if (token === null) throw invalid(this.source, 'validation.price.token is missing');
      if (paid !== 'All' && !paid.includes(token)) throw invalid(this.source, `Token address for fixed price is not in allowed spl paid tokens: ${token}`);
      const strict = this.#value(table, 'strict');
      if (typeof strict !== 'boolean') throw invalid(this.source, 'validation.price.strict must be true or false');
      return { type: 'fixed', amount: this.integer(table, 'validation.price.amount'), token, strict };
    }
    throw invalid(this.source, `validation.price.type "${String(type)}" is not one of margin, fixed, free`);
  }
}
