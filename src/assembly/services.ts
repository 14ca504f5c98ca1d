import type { ApiKeys } from '../domain/auth/api-keys.ts';
import type { RpcAuthMode } from '../domain/auth/rpc-auth.ts';
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
import type { ChangeFeed } from '../domain/state/change-feed.ts';
import type { StateRegistry } from '../domain/state/state-registry.ts';
import type { HistoryIndex } from '../domain/store/history-index.ts';
import type { TokenAccountIndex } from '../domain/store/token-account-index.ts';
import type { Submissions } from '../domain/store/submissions.ts';

/** What an emulator exposes about itself. */
import type { PolicyProfile } from '../domain/relay/policy-options.ts';

export interface EmulatorConfig {
  baseUrl: string;
  rpcUrl: string;
  /** Where Kora's JSON-RPC answers (also `/kora` at every origin served). */
  koraUrl: string;
  /**
   * The PubSub WebSocket URL clients derive by themselves from `rpcUrl` (its port + 1, as web3.js
   * does; the emulator serves it), or null when no listener serves it (option `loopback: false`,
   * or an `rpcUrl` of the caller's). PubSub also answers on `rpcUrl`'s own port.
   */
  pubsubUrl: string | null;
  /** The first accepted API key. */
  apiKey: string;
  /** The fee payer's public key, base58. */
  feePayer: string;
  rpcEnvironment: string;
  tokenTtlSeconds: number;
  maxBodyBytes: number;
  /** When the RPC and PubSub need the Token (src/domain/auth/rpc-auth.ts). */
  rpcAuth: RpcAuthMode;
  /** Where the web UI is served: the loopback listener's root in process, else the base URL's origin's (`<origin>/`). */
  uiUrl: string;
  /** The ledger engine running underneath (`bankrun`, `litesvm`, or the name a custom engine gives itself). */
  engine: string;
  /** The fee-payer policy profile (`faithful` or `strict`). */
  policyProfile: PolicyProfile;
}

/** The emulator's parts, as route handlers see them. */
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
  now: () => Date;
  /** The per-API-key rate limit, or null when off (option `rateLimit`). */
  rateLimiter: RateLimiter | null;
}
