import type { Keypair } from '@solana/web3.js';

/** MUST: pinned by the service spec (docs/relay-service-spec.md). SHOULD: a documented `x-emulator-choice` of openapi/relay.yaml. */
export type CheckLevel = 'MUST' | 'SHOULD';
/** `not-applicable`: the check is of an interface the run does not cover (option `interface`); it counts for nothing. */
export type CheckStatus = 'pass' | 'fail' | 'skip' | 'not-applicable';

/** Which of the service's interfaces a run checks (service spec 4.1 current, 4.3 legacy; `all` is both); `kora`: Kora's JSON-RPC (docs/kora.md). */
export type InterfaceScope = 'current' | 'legacy' | 'all' | 'kora';
export const INTERFACE_SCOPES: readonly InterfaceScope[] = ['current', 'legacy', 'all', 'kora'];

/** A Kora JSON-RPC endpoint to check (`interface` 'kora'), with the credentials its kora.toml's [kora.auth] asks for. */
export interface KoraTarget {
  url: string;
  apiKey?: string;
  hmacSecret?: string;
}

/** The legacy app to check (service spec 4.3): the `{environment}/{index}` of its routes. */
export interface LegacyTarget {
  environment: string;
  index: number;
}

export interface ConformanceOptions {
  /** The service's base address, `/api` included (e.g. http://127.0.0.1:8787/api). Required. */
  baseUrl: string;
  /** Sent as `X-API-Key` on current endpoints. Required, but when `interface` is 'legacy'. */
  apiKey?: string;
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
  /** The legacy app whose routes are checked; required when `interface` is 'legacy' or 'all'. */
  legacy?: LegacyTarget;
  /**
   * The interfaces the implementation offers: checks of the others are reported not applicable, and
   * the verdict rests on the rest. Default: 'all' when `legacy` is given, else 'current'.
   */
  interface?: InterfaceScope;
  /** Kora's JSON-RPC; required when `interface` is 'kora'. */
  kora?: KoraTarget;
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
  /** Checks of an interface outside the run's scope. */
  notApplicable: number;
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
  target: { baseUrl: string; interface: InterfaceScope };
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  summary: ConformanceSummary;
}
