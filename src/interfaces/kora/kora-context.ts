import type { EmulatorServices } from '../../assembly/services.ts';
import type { KoraConfig } from './kora-config.ts';
import type { FeeScope } from './kora-fee.ts';
import type { KoraSignerPool } from './kora-signers.ts';
import type { KoraUsage } from './kora-usage.ts';

export type KoraServices = Pick<EmulatorServices, 'ledger' | 'relay' | 'worker' | 'fixtures' | 'state' | 'changes'>;

/** What Kora's methods answer from: the emulator's ledger and relay, the config, and Kora's signer. */
export interface KoraContext {
  services: KoraServices;
  config: KoraConfig;
  /** Kora's signers: the relay's fee payer unless a signers.toml names other keys. */
  signers: KoraSignerPool;
  /** `kora.usage_limit`'s counts. */
  usage: KoraUsage;
}

/** What Kora's fee arithmetic and validation read, for the signer at `feePayer`. */
export function feeScope(context: KoraContext, feePayer: string): FeeScope {
  return { ledger: context.services.ledger, validation: context.config.validation, feePayer, paymentAddress: context.config.kora.payment_address ?? feePayer };
}
