import type { EmulatorConfig } from '../../domain/config.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';

/** What /health, /docs and /openapi.yaml read. */
export interface MetaDeps {
  config: EmulatorConfig;
  ledger: Ledger;
}
