import type { TokenIssuer } from '../../domain/auth/tokens.ts';
import type { Call } from '../../base/http/router.ts';
import type { EmulatorConfig } from '../../domain/config.ts';
import type { EmulatorEmitter } from '../../domain/events.ts';
import type { Fixtures } from '../../domain/fixtures/load-fixtures.ts';
import type { Ledger } from '../../domain/ledger/ledger.ts';
import type { AcceptPipeline } from '../../domain/relay/accept-pipeline.ts';
import type { HistoryIndex } from '../../domain/store/history-index.ts';
import type { Submissions } from '../../domain/store/submissions.ts';
import type { TokenAccountIndex } from '../../domain/store/token-account-index.ts';

/** What the JSON-RPC methods, their Token check and PubSub ask for. */
export interface RpcDeps {
  config: EmulatorConfig;
  fixtures: Fixtures;
  ledger: Ledger;
  relay: AcceptPipeline;
  submissions: Submissions;
  history: HistoryIndex;
  tokenAccounts: TokenAccountIndex;
  tokens: TokenIssuer;
  /** PubSub hears landed transactions and direct account writes here. */
  events: Pick<EmulatorEmitter, 'on'>;
  now: () => Date;
  /** Methods beside Agave's, given by the assembly: Surfpool's cheatcodes, which the controls implement. */
  extraMethods?: MethodTable;
  /** Figures Surfpool's surfnet_setSupply set, which getSupply answers instead of those it counts. */
  supply?: { current: SupplyOverride | null };
}

/** surfnet_setSupply's figures; each one absent is counted. */
export interface SupplyOverride {
  total?: bigint;
  circulating?: bigint;
  nonCirculating?: bigint;
  nonCirculatingAccounts?: string[];
}

/** What a method handler gets besides its params. */
export interface RpcContext {
  deps: RpcDeps;
  /** The HTTP call it came in (absent over PubSub): for methods that ask who calls (the cheatcodes' guard). */
  call?: Call<RpcDeps>;
}

export type RpcMethod = (params: unknown, context: RpcContext) => unknown;
export type MethodTable = Record<string, RpcMethod>;
