import { describe, expect, it } from 'vitest';
import { runBenchmarks, SMOKE } from '../bench/run.ts';

// Keeps the benchmarks working in CI at tiny sizes. No timing is asserted: these machines are noisy,
// and the figures live in BENCHMARKS.md from full runs of `npm run bench`.
describe('benchmarks (smoke sizes)', () => {
  it('measures every figure as a finite ratio and profiles the relay stages', async () => {
    const { figures, stages } = await runBenchmarks(SMOKE);
    expect(figures.map((figure) => figure.name)).toEqual([
      'relay efficiency, bankrun (transfers/s)',
      'relayed transfers/s in process, bankrun',
      'relay efficiency, litesvm (transfers/s)',
      'relayed transfers/s in process, litesvm',
      'start-up, bankrun (median ms)',
      'start-up, litesvm (median ms)',
      'history p50 (large/small index)',
      'calibration: bare node:http + 10 µs of busy CPU per request',
      'adapter floor: trivial fetch on @hono/node-server',
      'GET /Transaction/config over HTTP',
      'POST /Account/getaccountinfo over HTTP',
      'GET /Transaction/config, journal off',
      'POST /Account/getaccountinfo, journal off',
      'RSS of one emulator, bankrun',
      `RSS growth, ${SMOKE.churn} emulators created+closed, bankrun`,
      'RSS of one emulator, litesvm',
      `RSS growth, ${SMOKE.churn} emulators created+closed, litesvm`,
    ]);
    for (const figure of figures) expect(Number.isFinite(figure.ratio), figure.name).toBe(true);
    for (const engine of stages) expect(engine.map((stage) => stage.stage)).toContain('relay: policy');
  }, 120_000);
});
