import type { Ed25519Signer } from '../crypto/ed25519.ts';
import type { EmulatorServices } from '../services.ts';
import type { KoraConfig } from './kora-config.ts';

/** What Kora's methods answer from: the emulator's ledger and relay, the config, and Kora's signer. */
export interface KoraContext {
  services: Pick<EmulatorServices, 'ledger' | 'relay' | 'worker' | 'fixtures'>;
  config: KoraConfig;
  /** Kora's signer: the relay's fee payer unless the config names another key. */
  signer: Ed25519Signer;
}
