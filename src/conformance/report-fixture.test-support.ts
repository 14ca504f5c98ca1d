import { summarize } from './summarize.ts';
import type { CheckResult, ConformanceReport } from './types.ts';

/** A small report with a pass, a MUST failure, a SHOULD failure with XML-hostile text, and a skip. */
export function sampleReport(results?: CheckResult[]): ConformanceReport {
  const rows: CheckResult[] = results ?? [
    { id: 'config.fields', section: '2.2', level: 'MUST', title: 'Config fields', status: 'pass', reason: '5 fields', durationMs: 12 },
    { id: 'relay.create.receipt', section: '2.1', level: 'MUST', title: 'Create receipt', status: 'fail', reason: 'signature is missing', durationMs: 40 },
    {
      id: 'contract.createAccount',
      section: '4.1',
      level: 'SHOULD',
      choice: '#/paths/~1Account~1create/post',
      title: 'Responses of POST /Account/create match <contract> & "spec"',
      status: 'fail',
      reason: "status 201 is not declared <200> & 'more'\u0001",
      durationMs: 0,
    },
    { id: 'legacy.app-config', section: '2.6', level: 'MUST', title: 'Legacy app config', status: 'skip', reason: 'no legacy app given', durationMs: 1 },
  ];
  return {
    target: { baseUrl: 'http://relay.test/api', interface: 'all' },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1234,
    results: rows,
    summary: summarize(rows),
  };
}
