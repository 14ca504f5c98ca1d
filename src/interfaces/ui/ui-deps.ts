import type { EmulatorConfig } from '../../domain/config.ts';
import type { Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { LoadedPrograms } from '../../domain/ledger/loaded-programs.ts';
import type { RequestBinder } from '../../domain/openapi/binding.ts';
import type { RelayQueue } from '../../domain/relay/relay-queue.ts';
import type { SubmissionJob } from '../../domain/relay/submission-worker.ts';
import type { HistoryIndex } from '../../domain/store/history-index.ts';
import type { Submissions } from '../../domain/store/submissions.ts';
import type { TokenAccountIndex } from '../../domain/store/token-account-index.ts';
import type { LegacyService } from '../legacy/legacy-service.ts';

/** What the web UI's routes read: the stores, the ledger, the legacy records, the configuration. */
export interface UiDeps {
  config: EmulatorConfig;
  fixtures: Fixtures;
  ledger: Ledger;
  programs: LoadedPrograms;
  queue: RelayQueue<SubmissionJob>;
  submissions: Submissions;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  legacy: LegacyService;
  binder: RequestBinder;
  /** The sponsors (the relay's fee payer, Kora's signers): a relay row's sponsorCost is what it cost them. */
  sponsors: ReadonlySet<string>;
}
