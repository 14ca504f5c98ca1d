// The public surface of relay-emulator. Everything importable is listed here on purpose.
export { createRelayEmulator, DEFAULT_BASE_URL, DEFAULT_GENESIS_TIME, DEFAULT_MAX_BODY_BYTES, DEFAULT_TOKEN_TTL_SECONDS } from './emulator.ts';
export type { RelayEmulator } from './emulator.ts';
export type { RelayEmulatorOptions } from './options.ts';
export type { EmulatorConfig, EmulatorServices } from './services.ts';
export type { Exchange, FetchHandler } from './core/create-fetch.ts';
export { RelayError } from './errors/relay-error.ts';
export { PROBLEMS, type ProblemCode } from './errors/problem-codes.ts';
export { errorToResponse } from './errors/to-response.ts';
export { DEFAULT_POLICY, type PolicyOptions } from './relay/policy-options.ts';
export { RECEIPT_MESSAGES, type RelayReceipt } from './relay/relay-service.ts';
export type { QueueOptions, QueueState } from './relay/relay-queue.ts';
export { loadFixtures, keypairOf, DEFAULT_FIXTURES_DIR, type Fixtures } from './fixtures/load-fixtures.ts';
export type { LedgerEngine, LedgerAccount, EngineFactory } from './ledger/engine.ts';
export { createBankrunEngine } from './ledger/bankrun-engine.ts';
export type { components as RelayApi, paths as RelayPaths } from './generated/relay.ts';
