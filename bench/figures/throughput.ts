/** HTTP throughput: each server against its bare node:http baseline (bench/server-throughput.ts). */
import { median, type Figure } from '../stats.ts';

/** The servers measured over HTTP, each against its bare baseline (GET or POST). */
export const THROUGHPUT_TARGETS = ['calibration', 'adapter', 'config', 'info', 'quietConfig', 'quietInfo'] as const;
export type ThroughputTarget = (typeof THROUGHPUT_TARGETS)[number];
export type ThroughputBaseline = 'bare' | 'barePost';
export const BASELINE_OF: Record<ThroughputTarget, ThroughputBaseline> = {
  calibration: 'bare',
  adapter: 'bare',
  config: 'bare',
  info: 'barePost',
  quietConfig: 'bare',
  quietInfo: 'barePost',
};

/** One round of one target: the server measured right after its bare baseline. */
export interface ThroughputRound {
  rate: number;
  cpuMicros: number;
  baseRate: number;
  baseCpuMicros: number;
}

export interface ThroughputMeasurement {
  /** Busy CPU the calibration server adds per request. */
  calibrationMicros: number;
  rounds: Record<ThroughputTarget, ThroughputRound[]>;
}

/**
 * Each figure is the median over rounds of a *paired* ratio: in every round, each server is
 * measured right after its bare baseline, and the ratio is taken within that pair.
 */
export function throughputFigures({ calibrationMicros, rounds }: ThroughputMeasurement): Figure[] {
  const figure = (name: string, target: ThroughputTarget): Figure => {
    const sample = rounds[target];
    const ratios = sample.map((round) => round.rate / round.baseRate);
    const ratio = median(ratios);
    const micros = median(sample.map((round) => round.cpuMicros));
    const bareMicros = median(sample.map((round) => round.baseCpuMicros));
    return {
      name,
      measured: `${median(sample.map((round) => round.rate)).toFixed(0)} req/s, ${micros.toFixed(0)} µs CPU/req`,
      baseline:
        `${median(sample.map((round) => round.baseRate)).toFixed(0)} req/s, ${bareMicros.toFixed(0)} µs CPU/req (bare ` +
        `${BASELINE_OF[target] === 'bare' ? 'GET' : 'POST'})`,
      ratio,
      target: '≥ 0.5',
      meets: ratio >= 0.5,
      note:
        `paired ratios by round ${ratios.map((value) => value.toFixed(2)).join(', ')}; CPU efficiency (bare CPU per request / emulator CPU per ` +
        `request) = ${(bareMicros / micros).toFixed(2)}`,
    };
  };
  const report = (figure: Figure): Figure => ({ ...figure, target: 'report', meets: null });
  return [
    report(figure(`calibration: bare node:http + ${calibrationMicros} µs of busy CPU per request`, 'calibration')),
    report(figure('adapter floor: trivial fetch on @hono/node-server', 'adapter')),
    figure('GET /Transaction/config over HTTP', 'config'),
    figure('POST /Account/getaccountinfo over HTTP', 'info'),
    figure('GET /Transaction/config, journal off', 'quietConfig'),
    figure('POST /Account/getaccountinfo, journal off', 'quietInfo'),
  ];
}
