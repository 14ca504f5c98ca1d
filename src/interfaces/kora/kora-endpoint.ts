import { readFileSync } from 'node:fs';
import type { Ed25519Signer } from '../../base/crypto/ed25519.ts';
import type { Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import type { FetchHandler } from '../../base/http/exchange.ts';
import { PROGRAMS } from '../../domain/relay/programs.ts';
import { defaultFeePayerPolicy, defaultKoraSection, type KoraConfig } from './kora-config.ts';
import { createKoraHandler } from './kora-handler.ts';
import { readKoraSigners, singleSignerPool } from './kora-signers.ts';
import { readKoraToml } from './kora-toml.ts';
import { KoraUsage } from './kora-usage.ts';
import type { KoraServices } from './kora-context.ts';

export interface KoraOptions {
  /** A `kora.toml` to read, as Kora reads it (`--kora-config`). Default: {@link defaultKoraConfig}. */
  config?: string;
  /** A `signers.toml` to read, as Kora reads it (`--kora-signers`), its keys from the environment. Default: the relay's fee payer. */
  signers?: string;
}

/**
 * The Kora a team gets without a kora.toml: the fixture mints allowed and accepted for payment, the
 * programs a token transfer needs (System, SPL Token, Token-2022, ATA, Compute Budget, Memo), 1 SOL
 * and 10 signatures at most, the `free` price, every method enabled, and Kora's own default
 * fee-payer policy (the fee payer may do nothing but pay).
 */
export function defaultKoraConfig(fixtures: Fixtures): KoraConfig {
  const mints = fixtures.mints.map((mint) => mint.address);
  return {
    validation: {
      max_allowed_lamports: 1_000_000_000,
      max_signatures: 10,
      allowed_programs: [
        PROGRAMS.system,
        PROGRAMS.token,
        PROGRAMS.token2022,
        PROGRAMS.associatedToken,
        PROGRAMS.computeBudget,
        PROGRAMS.memo,
        PROGRAMS.memoV1,
      ].map((key) => key.toBase58()),
      allowed_tokens: mints,
      allowed_spl_paid_tokens: [...mints],
      disallowed_accounts: [],
      price_source: 'Mock',
      fee_payer_policy: defaultFeePayerPolicy(),
      price: { type: 'free' },
      token_2022: { blocked_mint_extensions: [], blocked_account_extensions: [] },
      allow_durable_transactions: false,
    },
    kora: defaultKoraSection(),
  };
}

/** Kora's JSON-RPC over the emulator's ledger and relay, signing as the signers.toml's keys, else as `feePayer` (the relay's). */
/** Kora's JSON-RPC, and the programs its kora.toml allows (the emulator warns at start of any the ledger cannot run). */
export function createKoraEndpoint(
  services: KoraServices,
  feePayer: Ed25519Signer,
  options: KoraOptions = {},
): { fetch: FetchHandler; allowedPrograms: readonly string[] } {
  const config = options.config === undefined ? defaultKoraConfig(services.fixtures) : readKoraToml(readFileSync(options.config, 'utf8'), options.config);
  const signers = options.signers === undefined ? singleSignerPool(feePayer) : readKoraSigners(options.signers);
  const usage = new KoraUsage(config.kora.usage_limit, services.changes.reporter('koraUsage'));
  services.state.register({
    name: 'koraUsage',
    snapshot: () => usage.snapshot(),
    restore: (data) => usage.restore(data),
    reset: () => usage.reset(),
    replay: (changes) => usage.replay(changes),
  });
  return { fetch: createKoraHandler({ services, config, signers, usage }), allowedPrograms: config.validation.allowed_programs };
}
