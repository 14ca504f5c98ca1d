import type { CheckResult, ConformanceSummary, ConformanceVerdict } from './types.ts';

export function summarize(results: readonly CheckResult[]): ConformanceSummary {
  const count = (predicate: (r: CheckResult) => boolean) => results.filter(predicate).length;
  const mustFailed = count((r) => r.status === 'fail' && r.level === 'MUST');
  const mustSkipped = count((r) => r.status === 'skip' && r.level === 'MUST');
  const verdict: ConformanceVerdict = mustFailed > 0 ? 'not-conformant' : mustSkipped > 0 ? 'incomplete' : 'conformant';
  return {
    total: results.length,
    passed: count((r) => r.status === 'pass'),
    failed: count((r) => r.status === 'fail'),
    skipped: count((r) => r.status === 'skip'),
    notApplicable: count((r) => r.status === 'not-applicable'),
    mustFailed,
    mustSkipped,
    shouldFailed: count((r) => r.status === 'fail' && r.level === 'SHOULD'),
    verdict,
    ok: verdict === 'conformant',
  };
}
