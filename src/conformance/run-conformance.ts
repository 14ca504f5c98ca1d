import { CheckFailure, SkipCheck, interfaceOfCheck, isSelected, type ConformanceCheck } from './check.ts';
import { TARGET_CHECKS, exchangeChecks } from './checks/index.ts';
import { ConformanceContext } from './context.ts';
import { defaultContractValidator } from './contract-validator.ts';
import { summarize } from './summarize.ts';
import { errorMessage } from './target-client.ts';
import { INTERFACE_SCOPES, type CheckResult, type ConformanceOptions, type ConformanceReport, type InterfaceScope } from './types.ts';

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Runs the conformance checks against the service at `options.baseUrl` and reports each one as
 * pass, fail or skip with a reason. It only speaks HTTP through `options.fetch`. It throws only
 * for invalid options; whatever the target does ends up in the report.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  if (!URL.canParse(options.baseUrl)) throw new TypeError(`baseUrl is not a URL: ${JSON.stringify(options.baseUrl)}`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new TypeError(`timeoutMs must be positive: ${timeoutMs}`);
  const scope = options.interface ?? (options.legacy ? 'all' : 'current');
  if (!INTERFACE_SCOPES.includes(scope)) throw new TypeError(`interface must be one of ${INTERFACE_SCOPES.join(', ')}: ${JSON.stringify(scope)}`);
  if (scope === 'kora' && !URL.canParse(options.kora?.url ?? '')) throw new TypeError(`interface 'kora' checks Kora's JSON-RPC: give kora ({ url })`);
  if ((scope === 'legacy' || scope === 'all') && !options.legacy)
    throw new TypeError(`interface '${scope}' checks a legacy app: give legacy ({ environment, index })`);
  const apiKeyGiven = typeof options.apiKey === 'string' && options.apiKey !== '';
  if (!apiKeyGiven && (scope === 'current' || scope === 'all')) throw new TypeError(`apiKey is required for interface '${scope}'`);
  const fetchFn = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const contract = defaultContractValidator();
  const ctx = new ConformanceContext(
    {
      baseUrl: options.baseUrl,
      apiKey: options.apiKey ?? '',
      rpcUrl: options.rpcUrl,
      ownerKeypair: options.ownerKeypair,
      mint: options.mint,
      legacy: scope === 'legacy' || scope === 'all' ? options.legacy : undefined,
      current: scope === 'current' || scope === 'all',
      kora: scope === 'kora' ? options.kora : undefined,
      timeoutMs,
    },
    fetchFn,
    contract,
  );

  const startedAt = new Date();
  const started = performance.now();
  const results: CheckResult[] = [];
  for (const check of TARGET_CHECKS) {
    if (!isSelected(check.id, options.only) || !ofService(check, scope)) continue;
    results.push(inScope(check, scope) ? await runCheck(check, ctx, ctx) : notApplicable(check, scope));
  }
  ctx.client.currentCheck = undefined;
  for (const check of exchangeChecks(ctx.client.exchanges, contract)) {
    if (!isSelected(check.id, options.only) || !ofService(check, scope)) continue;
    results.push(inScope(check, scope) ? await runCheck(check, undefined, ctx) : notApplicable(check, scope));
  }
  return {
    target: { baseUrl: options.baseUrl, interface: scope },
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    results,
    summary: summarize(results),
  };
}

async function runCheck<C>(check: ConformanceCheck<C>, argument: C, ctx: ConformanceContext): Promise<CheckResult> {
  ctx.client.currentCheck = check.id;
  const started = performance.now();
  const base = {
    id: check.id,
    section: check.section,
    level: check.level,
    ...(check.choice ? { choice: check.choice } : {}),
    title: check.title,
  };
  try {
    const note = await check.run(argument);
    return { ...base, status: 'pass', ...(note ? { reason: note } : {}), durationMs: elapsed(started) };
  } catch (error) {
    if (error instanceof SkipCheck) return { ...base, status: 'skip', reason: error.message, durationMs: elapsed(started) };
    const reason = error instanceof CheckFailure ? error.message : `the check itself failed: ${errorMessage(error)}`;
    return { ...base, status: 'fail', reason, durationMs: elapsed(started) };
  }
}

/**
 * Kora's JSON-RPC is another service than the relay: a run lists the checks of the one it checks
 * (`kora`, or the relay's scopes), and those every implementation answers.
 */
function ofService(check: ConformanceCheck<never>, scope: InterfaceScope): boolean {
  const of = interfaceOfCheck(check);
  return of === 'any' || (of === 'kora') === (scope === 'kora');
}

function inScope(check: ConformanceCheck<never>, scope: InterfaceScope): boolean {
  const of = interfaceOfCheck(check);
  return scope === 'all' || of === 'any' || of === scope;
}

function notApplicable(check: ConformanceCheck<never>, scope: InterfaceScope): CheckResult {
  return {
    id: check.id,
    section: check.section,
    level: check.level,
    ...(check.choice ? { choice: check.choice } : {}),
    title: check.title,
    status: 'not-applicable',
    reason: `not applicable: this run checks the ${scope} interface only (--interface ${scope})`,
    durationMs: 0,
  };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
