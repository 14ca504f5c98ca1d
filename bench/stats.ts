/** Small statistics helpers for the benchmarks. Figures are ratios measured side by side in one run. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function timeIt<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export interface Figure {
  name: string;
  measured: string;
  baseline: string;
  /** Null when the baseline is too small to divide by (noise), printed as a dash. */
  ratio: number | null;
  target: string;
  /** True when the ratio meets the target. */
  meets: boolean | null;
  note?: string;
}

export function formatTable(figures: Figure[]): string {
  const rows = [
    ['figure', 'measured', 'baseline', 'ratio', 'target', 'ok'],
    ...figures.map((f) => [
      f.name,
      f.measured,
      f.baseline,
      f.ratio === null ? '-' : f.ratio.toFixed(2),
      f.target,
      f.meets === null ? '-' : f.meets ? 'yes' : 'NO',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}
