/** Where the time goes: a relayed transfer's CPU by stage (bench/where-time-goes.ts). */
import type { BenchEngine } from './shared.ts';

/**
 * CPU microseconds of each stage of one relayed transfer, summed over `calls` transfers, and of the
 * whole call (fetch → settle) over the same transfers.
 */
export interface StageMeasurement {
  engine: BenchEngine;
  calls: number;
  totalMicros: Map<string, number>;
  wholeMicros: number;
}

export interface Stage {
  stage: string;
  microseconds: number;
}

/** The whole call first, then each stage per call, slowest first, with what the stages leave of the whole as the plumbing. */
export function stageBreakdown({ engine, calls, totalMicros, wholeMicros }: StageMeasurement): Stage[] {
  const stages = [...totalMicros].map(([stage, total]) => ({ stage, microseconds: total / calls }));
  const accounted = stages.reduce((sum, stage) => sum + stage.microseconds, 0);
  stages.push({ stage: 'plumbing: fetch, binding, JSON, journal, queue, ledger bookkeeping', microseconds: wholeMicros / calls - accounted });
  stages.sort((a, b) => b.microseconds - a.microseconds);
  return [{ stage: `whole relayed transfer on ${engine}`, microseconds: wholeMicros / calls }, ...stages];
}
