import type { RequestBinder } from '../../domain/openapi/binding.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { HistoryIndex } from '../../domain/store/history-index.ts';
import type { TokenAccountIndex } from '../../domain/store/token-account-index.ts';
import type { LegacyService } from './legacy-service.ts';

/** What the legacy interface's routes ask for: its own domain (apps, records, relays) and the ledger's reads. */
export interface LegacyDeps {
  legacy: LegacyService;
  ledger: Ledger;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  binder: RequestBinder;
  now: () => Date;
}
