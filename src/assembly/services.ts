import type { EmulatorConfig } from '../domain/config.ts';
import type { ApiKeys } from '../domain/auth/api-keys.ts';
import type { TokenIssuer } from '../domain/auth/tokens.ts';
import type { Fixtures } from '../domain/fixtures/load-fixtures.ts';
import type { Ledger } from '../domain/ledger/ledger.ts';
import type { LoadedPrograms } from '../domain/ledger/loaded-programs.ts';
import type { RateLimiter } from '../domain/limits/rate-limiter.ts';
import type { RequestBinder } from '../domain/openapi/binding.ts';
import type { LegacyService } from '../interfaces/legacy/legacy-service.ts';
import type { AcceptPipeline } from '../domain/relay/accept-pipeline.ts';
import type { RelayQueue } from '../domain/relay/relay-queue.ts';
import type { SubmissionJob, SubmissionWorker } from '../domain/relay/submission-worker.ts';
import type { EmulatorEmitter } from '../domain/events.ts';
import type { ChangeFeed } from '../domain/state/change-feed.ts';
import type { StateRegistry } from '../domain/state/state-registry.ts';
import type { HistoryIndex } from '../domain/store/history-index.ts';
import type { TokenAccountIndex } from '../domain/store/token-account-index.ts';
import type { Submissions } from '../domain/store/submissions.ts';

/**
 * The emulator's parts, as the assembly builds them (src/assembly/emulator.ts) and hands them down:
 * each interface takes the few it asks for (its own deps type), and `emulator.services` exposes
 * them all to advanced tests and to the node server (the state file).
 */
export interface EmulatorServices {
  config: EmulatorConfig;
  fixtures: Fixtures;
  ledger: Ledger;
  /** The app's own programs: loaded at start, deployed since. */
  programs: LoadedPrograms;
  /** The accept pipeline: every check, the fee-payer signature, the submission, the queue. */
  relay: AcceptPipeline;
  queue: RelayQueue<SubmissionJob>;
  /** The queue's worker: ledger, submissions, history, finalization; waits for commitments. */
  worker: SubmissionWorker;
  /** The legacy interface's apps, records and relay lifecycle. */
  legacy: LegacyService;
  /** Every accepted transaction on its way to the ledger, by signature. */
  submissions: Submissions;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  apiKeys: ApiKeys;
  tokens: TokenIssuer;
  binder: RequestBinder;
  /** Stateful parts, for reset and the state file. */
  state: StateRegistry;
  /** Every state change as it is made, for the state file's write-ahead journal (nobody listens in process). */
  changes: ChangeFeed;
  /** The emulator's one emitter: landed transactions, direct account writes, state changes, exchanges (src/domain/events.ts). */
  events: EmulatorEmitter;
  now: () => Date;
  /** The per-API-key rate limit, or null when off (option `rateLimit`). */
  rateLimiter: RateLimiter | null;
}

export type { EmulatorConfig } from '../domain/config.ts';
