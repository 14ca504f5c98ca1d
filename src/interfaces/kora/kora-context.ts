import type { Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { AcceptPipeline } from '../../domain/relay/accept-pipeline.ts';
import type { SubmissionWorker } from '../../domain/relay/submission-worker.ts';
import type { ChangeFeed } from '../../domain/state/change-feed.ts';
import type { StateRegistry } from '../../domain/state/state-registry.ts';
import type { KoraConfig } from './kora-config.ts';
import type { FeeScope } from './kora-fee.ts';
import type { KoraSignerPool } from './kora-signers.ts';
import type { KoraUsage } from './kora-usage.ts';

/** What Kora asks of the emulator: its ledger and relay, the fixtures' mints, and the state registry for its usage counts. */
export interface KoraDeps {
  ledger: Ledger;
  relay: AcceptPipeline;
  worker: SubmissionWorker;
  fixtures: Fixtures;
  state: StateRegistry;
  changes: ChangeFeed;
  config: { koraUrl: string };
}

/** What Kora's methods answer from: the emulator's ledger and relay, the config, and Kora's signer. */
export interface KoraContext {
  deps: KoraDeps;
  config: KoraConfig;
  /** Kora's signers: the relay's fee payer unless a signers.toml names other keys. */
  signers: KoraSignerPool;
  /** `kora.usage_limit`'s counts. */
  usage: KoraUsage;
}

/** What Kora's fee arithmetic and validation read, for the signer at `feePayer`. */
export function feeScope(context: KoraContext, feePayer: string): FeeScope {
  return { ledger: context.deps.ledger, validation: context.config.validation, feePayer, paymentAddress: context.config.kora.payment_address ?? feePayer };
}
