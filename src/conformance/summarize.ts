import type { CheckResult, ConformanceSummary } from './types.ts';

export function summarize(results: readonly CheckResult[]): ConformanceSummary {
  const count = (predicate: (r: CheckResult) => boolean) => results.filter(predicate).length;
  const mustFailed = count((r) => r.status === 'fail' && r.level === 'MUST');
  return {
    total: results.length,
    passed: count((r) => r.status === 'pass'),
    failed: count((r) => r.status === 'fail'),
    skipped: count((r) => r.status === 'skip'),
    mustFailed,
    shouldFailed: count((r) => r.status === 'fail' && r.level === 'SHOULD'),
    ok: mustFailed === 0,
  };
}
