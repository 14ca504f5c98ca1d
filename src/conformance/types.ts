import type { Keypair } from '@solana/web3.js';

/** MUST: pinned by the service spec (docs/relay-service-spec.md). SHOULD: a documented `x-emulator-choice` of openapi/relay.yaml. */
export type CheckLevel = 'MUST' | 'SHOULD';
export type CheckStatus = 'pass' | 'fail' | 'skip';

/** The legacy app to check (service spec 4.3): the `{environment}/{index}` of its routes. */
export interface LegacyTarget {
  environment: string;
  index: number;
}

export interface ConformanceOptions {
  /** The service's base address, `/api` included (e.g. http://127.0.0.1:8787/api). Required. */
  baseUrl: string;
  /** Sent as `X-API-Key` on current endpoints. Required. */
  apiKey: string;
  /** The RPC endpoint used when the target has no GET /Transaction/blockhash. Default: `RpcUrl` of GET /Transaction/config. */
  rpcUrl?: string;
  /**
   * The owner the relay scenarios spend from; it must hold at least 3 base units of `mint` (they are sent out and back).
   * Default: a fresh keypair funded through the target's `/__emulator` routes when it has them;
   * without either, the scenarios are skipped.
   */
  ownerKeypair?: Keypair;
  /** The mint of the relay scenarios. Default: a mint made through `/__emulator/mints` when the target has it. */
  mint?: string;
  /** Check the legacy routes of this app. Default: legacy checks are skipped. */
  legacy?: LegacyTarget;
  /** How requests are made. Default: globalThis.fetch. In-process runs pass the emulator's `fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Bound of one request, and of each wait for a relayed transaction's effect. Default: 30 000 ms. */
  timeoutMs?: number;
  /** Run only these checks: ids, or prefixes ending in '.' ('relay.'). Default: every check. */
  only?: string[];
}

export interface CheckResult {
  id: string;
  /** Section of docs/relay-service-spec.md the check comes from. */
  section: string;
  level: CheckLevel;
  /** For SHOULD checks: JSON pointer into openapi/relay.yaml of the `x-emulator-choice` it checks. */
  choice?: string;
  title: string;
  status: CheckStatus;
  /** Why it failed or was skipped; for some passes, what was seen. */
  reason?: string;
  durationMs: number;
}

/**
 * What the run shows: `conformant` when every MUST check ran and passed; `incomplete` when none
 * failed but some were skipped (what they check was not seen, so conformance is not shown);
 * `not-conformant` when a MUST check failed.
 */
export type ConformanceVerdict = 'conformant' | 'incomplete' | 'not-conformant';

export interface ConformanceSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Failed MUST checks: the run is non-conformant when this is not 0. */
  mustFailed: number;
  /** Skipped MUST checks: without a failure, the run is incomplete when this is not 0. */
  mustSkipped: number;
  shouldFailed: number;
  verdict: ConformanceVerdict;
  /** True only when the verdict is `conformant`: no MUST check failed or was skipped. */
  ok: boolean;
}

export interface ConformanceReport {
  target: { baseUrl: string };
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  summary: ConformanceSummary;
}
