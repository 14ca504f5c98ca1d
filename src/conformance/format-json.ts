import type { ConformanceReport } from './types.ts';

/** The report as pretty-printed JSON (the ConformanceReport type is its schema). */
export function formatJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
