import type { ApiKeys } from '../../domain/auth/api-keys.ts';
import type { TokenIssuer } from '../../domain/auth/tokens.ts';
import type { EmulatorConfig } from '../../domain/config.ts';
import type { Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { RateLimiter } from '../../domain/limits/rate-limiter.ts';
import type { RequestBinder } from '../../domain/openapi/binding.ts';
import type { AcceptPipeline } from '../../domain/relay/accept-pipeline.ts';
import type { HistoryIndex } from '../../domain/store/history-index.ts';
import type { TokenAccountIndex } from '../../domain/store/token-account-index.ts';

/** What the current interface's routes and middleware ask for. */
export interface CurrentDeps {
  config: EmulatorConfig;
  fixtures: Fixtures;
  ledger: Ledger;
  relay: AcceptPipeline;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  apiKeys: ApiKeys;
  tokens: TokenIssuer;
  binder: RequestBinder;
  /** The per-API-key rate limit, or null when off (option `rateLimit`). */
  rateLimiter: RateLimiter | null;
}
