// The public surface of relay-emulator. Everything importable is listed here on purpose.
export { createRelayEmulator, DEFAULT_BASE_URL, DEFAULT_GENESIS_TIME, DEFAULT_MAX_BODY_BYTES, DEFAULT_TOKEN_TTL_SECONDS } from './emulator.ts';
export type { RelayEmulator } from './emulator.ts';
export type { RelayEmulatorOptions } from './options.ts';
export type { EmulatorConfig, EmulatorServices } from './services.ts';
export type { Exchange, ExchangeObserver, FetchHandler } from './core/create-fetch.ts';
export type { RequestContext } from './http/request-context.ts';
export { RelayError, isRelayError, type FieldError, type ProblemContext, type ProblemContexts } from './errors/relay-error.ts';
export { InternalError, isInternalError, type InternalCode, type InternalContexts } from './errors/internal-error.ts';
export { PROBLEMS, type ProblemCode } from './errors/problem-codes.ts';
export { errorToResponse } from './http/error-response.ts';
export { DEFAULT_POLICY, POLICY_PROFILES, type PolicyInput, type PolicyOptions, type PolicyProfile } from './relay/policy-options.ts';
export type { RateLimitOptions } from './limits/rate-limit-options.ts';
export { RECEIPT_MESSAGES, type RelayReceipt } from './relay/receipts.ts';
export type { QueueOptions, QueueState } from './relay/relay-queue.ts';
export { loadFixtures, keypairOf, DEFAULT_FIXTURES_DIR, type Fixtures } from './fixtures/load-fixtures.ts';
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
} from './ledger/engine.ts';
export { createBankrunEngine, createLiteSvmEngine, DEFAULT_ENGINE, ENGINE_NAMES, type EngineName } from './ledger/engines.ts';
export type { LegacyService } from './legacy/legacy-service.ts';
export { appsFileSchema, DEFAULT_COMMITMENT_TIMEOUT_MS, type AppsFile, type LegacyApp, type LegacyMint } from './legacy/legacy-apps.ts';
export type { LegacyTransaction, LegacyStatus, LegacyErrorType } from './legacy/legacy-records.ts';
export { encodeAppMemo, decodeAppMemo, type AppMemo } from './legacy/app-memo.ts';
export { createRpcHandler, type RpcHandlerOptions } from './rpc/create-rpc-handler.ts';
export { RPC_METHOD_NAMES } from './rpc/method-table.ts';
export { JsonRpcError, RPC_ERROR } from './rpc/json-rpc-error.ts';
export { transactionJson, UnsupportedTransactionVersionError, type TransactionEncoding, type TransactionJsonOptions } from './rpc/transaction-json.ts';
export { upgradeToPubSub } from './rpc/pubsub/pubsub-server.ts';
export { DEFAULT_JOURNAL_LIMIT } from './emulator.ts';
export { DEFAULT_FAUCET_LAMPORTS } from './controls/faucet.ts';
export type { TestControlMethods, FaucetRequest, FaucetResult, CreatedMint, ClockState, WarpRequest, EmulatorSnapshot } from './controls/control-types.ts';
export { sealSnapshot } from './state/snapshot-seal.ts';
export type { AccountState } from './ledger/account-state.ts';
export { DEFAULT_LEDGER_ERROR, type Fault, type FaultOperation, type FaultRecord } from './controls/faults.ts';
export type { RequestRecord, RequestFilter } from './controls/request-journal.ts';
export type { TransactionJournalEntry, TransactionFilter } from './controls/transaction-journal.ts';
export { AdminGuard, isLoopbackHost } from './controls/admin-guard.ts';
export { encodeState, decodeState } from './state/state-codec.ts';
export { withCors, CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './core/cors.ts';
export { startServer, StateRestoreError, DEFAULT_HOST, DEFAULT_PORT, type ServerOptions, type RunningServer } from './server/start-server.ts';
export { CLIENT_TIMEOUTS, type ClientTimeouts } from './listen/defaults.ts';
export { StateFile, DEFAULT_STATE_INTERVAL_MS, DEFAULT_COMPACT_BYTES, type StateFileOptions, type OpenedState } from './server/state-file.ts';
export type { components as RelayApi, paths as RelayPaths } from './generated/relay.ts';
export {
  runConformance,
  runConformanceCommand,
  formatTable,
  formatJUnit,
  formatJson,
  TARGET_CHECKS,
  type ConformanceOptions,
  type ConformanceReport,
  type CheckResult,
  type ConformanceVerdict,
} from './conformance/index.ts';
