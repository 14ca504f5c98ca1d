import type { EmulatorConfig } from '../../domain/config.ts';
import type { Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { LoadedPrograms } from '../../domain/ledger/loaded-programs.ts';
import type { RequestBinder } from '../../domain/openapi/binding.ts';
import type { RelayQueue } from '../../domain/relay/relay-queue.ts';
import type { SubmissionJob, SubmissionWorker } from '../../domain/relay/submission-worker.ts';
import type { ChangeFeed } from '../../domain/state/change-feed.ts';
import type { StateRegistry } from '../../domain/state/state-registry.ts';
import type { HistoryIndex } from '../../domain/store/history-index.ts';
import type { Submissions } from '../../domain/store/submissions.ts';
import type { TokenAccountIndex } from '../../domain/store/token-account-index.ts';

/** What the test controls ask for: the ledger and the stores they drive, and the state registry for reset, snapshot and restore. */
export interface ControlsDeps {
  config: EmulatorConfig;
  fixtures: Fixtures;
  ledger: Ledger;
  programs: LoadedPrograms;
  queue: RelayQueue<SubmissionJob>;
  worker: SubmissionWorker;
  submissions: Submissions;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  binder: RequestBinder;
  state: StateRegistry;
  changes: ChangeFeed;
}
