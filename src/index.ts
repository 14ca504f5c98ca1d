// The public surface of relay-emulator. Everything importable is listed here on purpose.
export { createRelayEmulator, DEFAULT_BASE_URL, DEFAULT_GENESIS_TIME, DEFAULT_MAX_BODY_BYTES, DEFAULT_TOKEN_TTL_SECONDS } from './assembly/emulator.ts';
export type { RelayEmulator } from './assembly/emulator.ts';
export type { RelayEmulatorOptions } from './assembly/options.ts';
export type { EmulatorConfig, EmulatorServices } from './assembly/services.ts';
export type { Exchange, ExchangeObserver, FetchHandler } from './core/create-fetch.ts';
export type { RequestContext } from './base/http/request-context.ts';
export { RelayError, isRelayError, type FieldError, type ProblemContext, type ProblemContexts } from './base/errors/relay-error.ts';
export { InternalError, isInternalError, type InternalCode, type InternalContexts } from './base/errors/internal-error.ts';
export { PROBLEMS, type ProblemCode } from './base/errors/problem-codes.ts';
export { errorToResponse } from './base/http/error-response.ts';
export { DEFAULT_POLICY, POLICY_PROFILES, type PolicyInput, type PolicyOptions, type PolicyProfile } from './domain/relay/policy-options.ts';
export type { RateLimitOptions } from './domain/limits/rate-limit-options.ts';
export { RECEIPT_MESSAGES, type RelayReceipt } from './domain/relay/receipts.ts';
export type { QueueOptions, QueueState } from './domain/relay/relay-queue.ts';
export { loadFixtures, keypairOf, DEFAULT_FIXTURES_DIR, type Fixtures } from './domain/fixtures/load-fixtures.ts';
export type {
  LedgerEngine,
  LedgerAccount,
  EngineFactory,
  EngineClock,
  EngineExecution,
  EngineTransaction,
  InnerInstruction,
  InnerInstructions,
  GenesisAccount,
} from './domain/ledger/engine.ts';
export { createBankrunEngine, createLiteSvmEngine, DEFAULT_ENGINE, ENGINE_NAMES, type EngineName } from './domain/ledger/engines.ts';
export type { LegacyService } from './interfaces/legacy/legacy-service.ts';
export { DEFAULT_COMMITMENT_TIMEOUT_MS, type AppsFile, type LegacyApp, type LegacyMint } from './interfaces/legacy/legacy-apps.ts';
export type { LegacyTransaction, LegacyStatus, LegacyErrorType } from './interfaces/legacy/legacy-records.ts';
export { encodeAppMemo, decodeAppMemo, type AppMemo } from './interfaces/legacy/app-memo.ts';
export { createRpcHandler, type RpcHandlerOptions } from './interfaces/rpc/create-rpc-handler.ts';
export { RPC_METHOD_NAMES } from './interfaces/rpc/method-table.ts';
export { JsonRpcError, RPC_ERROR } from './interfaces/rpc/json-rpc-error.ts';
export {
  transactionJson,
  UnsupportedTransactionVersionError,
  type TransactionEncoding,
  type TransactionJsonOptions,
} from './interfaces/rpc/transaction-json.ts';
export { upgradeToPubSub } from './interfaces/rpc/pubsub/pubsub-server.ts';
export { DEFAULT_JOURNAL_LIMIT } from './assembly/emulator.ts';
export { DEFAULT_FAUCET_LAMPORTS } from './interfaces/controls/faucet.ts';
export type {
  TestControlMethods,
  FaucetRequest,
  FaucetResult,
  CreatedMint,
  ClockState,
  WarpRequest,
  EmulatorSnapshot,
} from './interfaces/controls/control-types.ts';
export { sealSnapshot } from './domain/state/snapshot-seal.ts';
export type { AccountState } from './domain/ledger/account-state.ts';
export { DEFAULT_LEDGER_ERROR, type Fault, type FaultOperation, type FaultRecord } from './interfaces/controls/faults.ts';
export type { RequestRecord, RequestFilter } from './interfaces/controls/request-journal.ts';
export type { TransactionJournalEntry, TransactionFilter } from './interfaces/controls/transaction-journal.ts';
export { AdminGuard, isLoopbackHost } from './interfaces/controls/admin-guard.ts';
export { encodeState, decodeState } from './domain/state/state-codec.ts';
export { withCors, CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './core/cors.ts';
export { startServer, StateRestoreError, DEFAULT_HOST, DEFAULT_PORT, type ServerOptions, type RunningServer } from './adapters/server/start-server.ts';
export { CLIENT_TIMEOUTS, type ClientTimeouts } from './adapters/listen/defaults.ts';
export { StateFile, DEFAULT_STATE_INTERVAL_MS, DEFAULT_COMPACT_BYTES, type StateFileOptions, type OpenedState } from './adapters/server/state-file.ts';
export type { components as RelayApi, paths as RelayPaths } from './generated/relay.ts';
// The kit loads on first use (src/conformance/lazy.ts); its formatters import nothing.
export { runConformance, runConformanceCommand, TARGET_CHECKS } from './conformance/lazy.ts';
export { formatTable } from './conformance/format-table.ts';
export { formatJUnit } from './conformance/format-junit.ts';
export { formatJson } from './conformance/format-json.ts';
export type { ConformanceOptions, ConformanceReport, CheckResult, ConformanceVerdict } from './conformance/types.ts';
