/**
 * The benchmarks' figures are computed from what was measured: fed measurements, each figure
 * follows them, in the direction and by the amount they imply. Nothing is timed here (the figures
 * themselves live in BENCHMARKS.md, from `npm run bench` runs); the measuring side runs with
 * `npm run bench -- --smoke`.
 */
import { describe, expect, it } from 'vitest';
import {
  historyFigure,
  journalFigure,
  memoryFigures,
  kbPerTransfer,
  relayEfficiencyFigures,
  relayMemoryFigures,
  relayMemoryLines,
  stageBreakdown,
  startupFigure,
  THROUGHPUT_TARGETS,
  throughputFigures,
  type BenchEngine,
  type MemoryMeasurement,
  type RelayMemoryProbe,
  type ThroughputMeasurement,
  type ThroughputRound,
  userSuiteFigure,
  walletPageFigures,
  type ThroughputTarget,
} from '../bench/figures.ts';
import { runBenchmarks, SMOKE, type BenchSizes, type Measurers } from '../bench/run.ts';

function throughput(round: (target: ThroughputTarget, index: number) => ThroughputRound, rounds = 3): ThroughputMeasurement {
  return {
    calibrationMicros: 10,
    rounds: Object.fromEntries(THROUGHPUT_TARGETS.map((target) => [target, Array.from({ length: rounds }, (_, index) => round(target, index))])) as Record<
      ThroughputTarget,
      ThroughputRound[]
    >,
  };
}

const MB = 1024 * 1024;
const KB = 1024;

/** One engine's relay-memory run: `perTransferKb` per transfer over 1,000 transfers in two steps, `perSlotKb` per slot, `keptMb` kept per closed emulator. */
function relayMemoryProbe(engine: string, perTransferKb: number, perSlotKb = 130, keptMb = 12): RelayMemoryProbe {
  const before = 200 * MB;
  return {
    engine,
    transfers: 1_000,
    step: 500,
    clients: 4,
    before,
    marks: [before + 500 * perTransferKb * KB * 0.8, before + 1_000 * perTransferKb * KB],
    afterReset: before + 1_000 * perTransferKb * KB,
    slots: 20,
    seconds: 10,
    warps: { slots: 100, before: 300 * MB, after: 300 * MB + 100 * perSlotKb * KB },
    recreated: { emulators: 2, slotsEach: 100, before: 400 * MB, after: 400 * MB + 2 * keptMb * MB },
  };
}

const ENGINES: BenchEngine[] = ['bankrun', 'litesvm'];

/** Measurements of an emulator `slowdown` times slower (and larger) than its baselines, which stay put. */
function fakeMeasurers(slowdown: number, seen: BenchSizes[] = []): Measurers {
  const note =
    <T>(value: T) =>
    (sizes: BenchSizes) => {
      seen.push(sizes);
      return Promise.resolve(value);
    };
  const round = { transfers: 100, relaySeconds: 0.1 * slowdown, relayCpuMicros: 900 * slowdown, bareSeconds: 0.2, bareCpuMicros: 120, signatureCpuMicros: 180 };
  return {
    relayEfficiency: note(ENGINES.map((engine) => ({ engine, rounds: [round, round, round] }))),
    startup: note(ENGINES.map((engine) => ({ engine, bareMs: [50, 60, 70], emulatorMs: [60, 66, 91].map((ms) => ms * slowdown) }))),
    history: note({ small: 1_000, large: 100_000, smallMs: [0.2, 0.25, 0.3], largeMs: [0.21, 0.25, 0.33].map((ms) => ms * slowdown) }),
    serverThroughput: note(throughput(() => ({ rate: 8_000 / slowdown, cpuMicros: 60 * slowdown, baseRate: 16_000, baseCpuMicros: 30 }))),
    memory: note<MemoryMeasurement[]>(
      ENGINES.map((engine) => ({
        engine,
        bare: { before: 100 * MB, after: 110 * MB },
        emulator: { before: 100 * MB, after: 100 * MB + 12 * MB * slowdown },
        churned: { before: 200 * MB, after: 200 * MB + 2 * MB * slowdown },
        churn: 2,
      })),
    ),
    stages: note(
      ENGINES.map((engine) => ({
        engine,
        calls: 4,
        totalMicros: new Map([
          ['relay: policy', 400 * slowdown],
          ['ledger: engine execute', 4_000],
        ]),
        wholeMicros: 8_000,
      })),
    ),
    journal: note({ clients: 32, plainRates: [100, 120, 80], journaledRates: [90, 114, 68].map((rate) => rate / slowdown), journalBytesPerRelay: 4096 }),
    relayMemory: note([relayMemoryProbe('bankrun', 6 * slowdown, 130 * slowdown, 12 * slowdown)]),
    appPrograms: note({
      programs: 5,
      accounts: 39,
      startup: { withoutMs: [100, 110, 90], withMs: [120, 121, 117].map((ms) => ms * slowdown) },
      relay: { perRound: 100, transferSeconds: [0.1, 0.1, 0.1], callSeconds: [0.11, 0.1, 0.125].map((seconds) => seconds * slowdown) },
    }),
    coldStart: note({
      importMs: [300, 280, 330].map((ms) => ms * slowdown),
      bareImportMs: [140, 140, 150],
      startMs: [500, 520, 480].map((ms) => ms * slowdown),
      bareStartMs: [300, 290, 300],
      validatorMs: [600, 620, 580].map((ms) => ms * slowdown),
      bareValidatorMs: [320, 300, 310],
    }),
    userSuite: note([
      { files: 50, isolate: true, emulatorMs: [60_000, 66_000, 63_000].map((ms) => ms * slowdown), bareMs: [30_000, 30_000, 30_000] },
      { files: 50, isolate: false, emulatorMs: [6_000, 6_600, 6_300].map((ms) => ms * slowdown), bareMs: [3_000, 3_000, 3_000] },
    ]),
    walletPage: note({
      bareMs: [100, 110, 90],
      fixtureMs: [400, 420, 380].map((ms) => ms * slowdown),
      perTestMs: [150, 160, 140].map((ms) => ms * slowdown),
    }),
  };
}

describe('each benchmark figure is computed from its measurements', () => {
  it(
    'relay efficiency: per engine, the median of paired relayed/bare ratios (at least 0.8 on LiteSVM), and relayed transfers a second (at least 400 ' +
      'on LiteSVM)',
    () => {
      const rounds = [
        { transfers: 100, relaySeconds: 0.2, relayCpuMicros: 500, bareSeconds: 0.1, bareCpuMicros: 100, signatureCpuMicros: 300 },
        { transfers: 100, relaySeconds: 0.125, relayCpuMicros: 400, bareSeconds: 0.1, bareCpuMicros: 120, signatureCpuMicros: 180 },
        { transfers: 100, relaySeconds: 0.1, relayCpuMicros: 300, bareSeconds: 0.1, bareCpuMicros: 110, signatureCpuMicros: 440 },
      ];
      // Ratios 0.5, 0.8, 1: median 0.8. Rates 500, 800, 1000: median 800.
      const [efficiency, rate] = relayEfficiencyFigures({ engine: 'litesvm', rounds });
      expect(efficiency).toMatchObject({
        name: 'relay efficiency, litesvm (transfers/s)',
        measured: '800/s relayed, 400 µs CPU/transfer',
        baseline: '1000/s bare litesvm, 110 µs CPU/transfer',
        ratio: 0.8,
        meets: true,
      });
      // Ceilings by round 100/400, 120/300, 110/550 = 0.25, 0.40, 0.20: median 0.25; signature CPU median 300.
      expect(efficiency!.note).toBe(
        "paired ratios by round 0.50, 0.80, 1.00; ceiling of a relay that verifies the client's signature and signs as fee payer (300 µs CPU/transfer, " +
          'src/base/crypto/ed25519.ts) and does nothing else: bare CPU ÷ (bare CPU + that) = 0.25',
      );
      expect(rate).toMatchObject({ name: 'relayed transfers/s in process, litesvm', measured: '800/s', ratio: 2, meets: true });
      const slow = rounds.map((one) => ({ ...one, relaySeconds: one.relaySeconds * 3 }));
      expect(relayEfficiencyFigures({ engine: 'litesvm', rounds: slow }).map((figure) => figure.meets)).toEqual([false, false]);
      // bankrun's figures are reported beside them, never judged.
      expect(relayEfficiencyFigures({ engine: 'bankrun', rounds: slow }).map((figure) => [figure.target, figure.meets])).toEqual([
        ['report', null],
        ['report', null],
      ]);
    },
  );

  it('start-up: the median of paired per-round ratios (not the ratio of the medians), at most 1.5 on bankrun', () => {
    // Rounds 1.5, 3 and 0.9: median 1.5; the medians alone would say 60 / 20 = 3.
    const figure = startupFigure({ engine: 'bankrun', bareMs: [10, 20, 100], emulatorMs: [15, 60, 90] });
    expect(figure).toMatchObject({
      name: 'start-up, bankrun (median ms)',
      measured: '60.0 ms emulator',
      baseline: '20.0 ms bare bankrun',
      ratio: 1.5,
      meets: true,
    });
    expect(startupFigure({ engine: 'bankrun', bareMs: [10, 20, 100], emulatorMs: [16, 60, 90] }).meets).toBe(false);
    expect(startupFigure({ engine: 'litesvm', bareMs: [10, 20, 100], emulatorMs: [16, 60, 90] })).toMatchObject({
      baseline: '20.0 ms bare litesvm',
      ratio: 1.6,
      meets: null,
    });
  });

  it("a user's suite: isolated files are held to 1.5× bare LiteSVM (issue 46); isolate: false is reported", () => {
    const isolated = (emulatorMs: number[]) => userSuiteFigure({ files: 50, isolate: true, emulatorMs, bareMs: [1_000, 1_000, 1_000] });
    expect(isolated([1_400, 1_300, 1_600])).toMatchObject({ ratio: 1.4, target: '≤ 1.5', meets: true });
    expect(isolated([1_600, 1_550, 1_400])).toMatchObject({ ratio: 1.55, meets: false });
    expect(userSuiteFigure({ files: 50, isolate: false, emulatorMs: [3_000], bareMs: [1_000] })).toMatchObject({ ratio: 3, target: 'report', meets: null });
  });

  it('history: the large index’s median request over the small one’s, at most 1.5', () => {
    const figure = historyFigure({ small: 1_000, large: 100_000, smallMs: [0.1, 0.2, 0.9], largeMs: [0.3, 0.25, 0.2] });
    expect(figure).toMatchObject({ measured: '0.250 ms @ 100000', baseline: '0.200 ms @ 1000', meets: true });
    expect(figure.ratio).toBeCloseTo(1.25, 10);
    expect(historyFigure({ small: 1_000, large: 100_000, smallMs: [0.2], largeMs: [0.31] }).meets).toBe(false);
  });

  it('server throughput: per target, the median of paired rate ratios, at least 0.5; the two reference servers only report', () => {
    const rates = [4_000, 9_000, 12_000];
    const figures = throughputFigures(
      throughput((target, index) => ({ rate: target === 'info' ? rates[index]! : 10_000, cpuMicros: 60, baseRate: 20_000, baseCpuMicros: 30 })),
    );
    expect(figures.map((figure) => [figure.name, figure.ratio, figure.meets])).toEqual([
      ['calibration: bare node:http + 10 µs of busy CPU per request', 0.5, null],
      ['adapter floor: trivial fetch on @hono/node-server', 0.5, null],
      ['GET /Transaction/config over HTTP', 0.5, true],
      ['POST /Account/getaccountinfo over HTTP', 0.45, false],
      ['GET /Transaction/config, journal off', 0.5, true],
      ['POST /Account/getaccountinfo, journal off', 0.5, true],
    ]);
    expect(figures[3]).toMatchObject({ measured: '9000 req/s, 60 µs CPU/req', baseline: '20000 req/s, 30 µs CPU/req (bare POST)' });
    expect(figures[3]!.note).toBe('paired ratios by round 0.20, 0.45, 0.60; CPU efficiency (bare CPU per request / emulator CPU per request) = 0.50');
  });

  it('memory: one emulator’s RSS over one bare start’s, and growth per churned emulator, at most 2 MB on LiteSVM', () => {
    const [one, churn] = memoryFigures({
      engine: 'litesvm',
      bare: { before: 100 * MB, after: 110 * MB },
      emulator: { before: 100 * MB, after: 115 * MB },
      churned: { before: 0, after: 6 * MB },
      churn: 4,
    });
    expect(one).toMatchObject({ name: 'RSS of one emulator, litesvm', measured: '15.0 MB', baseline: '10.0 MB bare litesvm', ratio: 1.5 });
    expect(churn).toMatchObject({ name: 'RSS growth, 4 emulators created+closed, litesvm', measured: '6.0 MB (1.5 MB each)', ratio: 0.75, meets: true });
    expect(
      memoryFigures({
        engine: 'litesvm',
        bare: { before: 0, after: MB },
        emulator: { before: 0, after: MB },
        churned: { before: 0, after: 9 * MB },
        churn: 4,
      })[1],
    ).toMatchObject({ ratio: 1.125, meets: false });
    expect(
      memoryFigures({
        engine: 'bankrun',
        bare: { before: 0, after: MB },
        emulator: { before: 0, after: MB },
        churned: { before: 0, after: 40 * MB },
        churn: 4,
      })[1],
    ).toMatchObject({ ratio: 5, meets: null });
  });

  it('relay memory: KB per relayed transfer over the whole run, at most 15 on the default engine; per slot and kept per closed emulator reported', () => {
    const [perTransfer, perSlot, kept] = relayMemoryFigures([relayMemoryProbe('bankrun', 6)], 'bankrun');
    expect(kbPerTransfer(relayMemoryProbe('bankrun', 6))).toBeCloseTo(6, 10);
    expect(perTransfer).toMatchObject({ name: 'RSS per relayed transfer, bankrun', measured: '6.0 KB (5.9 MB / 1000)', ratio: 0.4, meets: true });
    expect(relayMemoryFigures([relayMemoryProbe('bankrun', 15.5)], 'bankrun')[0]).toMatchObject({ meets: false });
    expect(perSlot).toMatchObject({ name: 'RSS per slot, bankrun', measured: '130.0 KB (100 one-slot warps)', meets: null });
    expect(perSlot!.ratio!).toBeCloseTo(130 / 6, 10);
    // 12 MB kept per emulator whose 100 slots cost 13,000 KB: closing gave nothing back.
    expect(kept).toMatchObject({ name: 'RSS kept per closed emulator, bankrun', measured: '12.0 MB (2 × 100 slots)', meets: null });
    expect(kept!.ratio!).toBeCloseTo((12 * 1024) / 13_000, 10);
    // Growth within RSS noise gives no ratio: a slot that costs nothing, slots that cost under 2 MB in all.
    const flat = relayMemoryFigures([relayMemoryProbe('litesvm', 3, -10, 0.5)], 'bankrun');
    expect(flat[1]).toMatchObject({ measured: '-10.0 KB (100 one-slot warps)', ratio: null });
    expect(flat[2]).toMatchObject({ measured: '0.5 MB (2 × 100 slots)', ratio: null, note: expect.stringContaining('within RSS noise') });
    expect(relayMemoryFigures([relayMemoryProbe('bankrun', 0.2)], 'bankrun')[1]!.ratio).toBeNull();
    // Another engine is reported, never judged.
    expect(relayMemoryFigures([relayMemoryProbe('litesvm', 40)], 'bankrun')[0]).toMatchObject({ target: 'report', meets: null });
    expect(relayMemoryLines(relayMemoryProbe('bankrun', 6))).toEqual([
      'bankrun: 1000 transfers by 4 callers in 10.0 s, 20 slots; RSS before 200.0 MB',
      '  after    500:  202.3 MB  (+4.8 KB per transfer)',
      '  after   1000:  205.9 MB  (+7.2 KB per transfer)',
      '  after reset:   205.9 MB',
      '  100 one-slot warps: 312.7 MB (+130.0 KB per slot)',
      '  2 emulators, 100 slots each, closed: +24.0 MB (12.0 MB kept per emulator)',
    ]);
  });

  it('journal: the median of paired per-round rate ratios, journaled over no state file, at least 0.8', () => {
    // Rounds 0.9, 0.95 and 0.85: median 0.9.
    const figure = journalFigure({ clients: 32, plainRates: [100, 120, 80], journaledRates: [90, 114, 68], journalBytesPerRelay: 3 * 1024 });
    expect(figure).toMatchObject({
      name: "relay throughput with the state file's journal (32 clients)",
      measured: '90/s journaled',
      baseline: '100/s no state file',
      meets: true,
    });
    expect(figure.ratio).toBeCloseTo(0.9, 10);
    expect(figure.note).toBe(
      "paired ratios by round 0.90, 0.95, 0.85; every change fdatasync'd before its answer (group commit), 3.0 KB of journal per relay before compaction",
    );
    expect(journalFigure({ clients: 32, plainRates: [100], journaledRates: [79], journalBytesPerRelay: 0 }).meets).toBe(false);
  });

  it('where the time goes: the whole call, then microseconds per call of each stage, slowest first, the rest as plumbing', () => {
    expect(
      stageBreakdown({
        engine: 'litesvm',
        calls: 4,
        totalMicros: new Map([
          ['fast', 40],
          ['slow', 400],
        ]),
        wholeMicros: 1_000,
      }),
    ).toEqual([
      { stage: 'whole relayed transfer on litesvm', microseconds: 250 },
      { stage: 'plumbing: fetch, binding, JSON, journal, queue, ledger bookkeeping', microseconds: 140 },
      { stage: 'slow', microseconds: 100 },
      { stage: 'fast', microseconds: 10 },
    ]);
  });
});

describe('runBenchmarks', () => {
  const NAMES = [
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
    'RSS growth, 2 emulators created+closed, bankrun',
    'RSS of one emulator, litesvm',
    'RSS growth, 2 emulators created+closed, litesvm',
  ];

  it('makes every figure from what the measurers return, given the sizes, for both engines', async () => {
    const seen: BenchSizes[] = [];
    const { figures, stages } = await runBenchmarks(SMOKE, fakeMeasurers(1, seen));
    expect(seen).toHaveLength(12);
    expect(seen.every((sizes) => sizes === SMOKE)).toBe(true);
    expect(figures.map((figure) => figure.name)).toEqual([
      ...NAMES,
      "relay throughput with the state file's journal (32 clients)",
      'RSS per relayed transfer, bankrun',
      'RSS per slot, bankrun',
      'RSS kept per closed emulator, bankrun',
      'start-up with 5 programs and 39 account dumps, litesvm',
      'relayed calls of a loaded program (spl_noop) per relayed SPL transfer, litesvm',
      'cold start: import + first emulator (median ms)',
      '`relay-emulator start` to ready (median ms)',
      '`relay-emulator test-validator` to its first getLatestBlockhash (median ms)',
      "a user's suite: 50 vitest files, one emulator and one relayed transfer each (median s)",
      "a user's suite: 50 vitest files, one emulator and one relayed transfer each, isolate: false (median s)",
      'a Playwright test with the fixture, first of its worker (emulator start, reset, wallet, page)',
      'a Playwright test with the fixture, its worker’s emulator up (reset, wallet, page)',
    ]);
    expect(figures.map((figure) => Number(figure.ratio!.toFixed(4)))).toEqual([
      2, 2.5, 2, 2.5, 1.2, 1.2, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1.2, 0.5, 1.2, 0.5, 0.9, 0.4, 21.6667, 0.9452, 1.2, 0.9091, 2.1429, 1.6667, 1.875, 2.1, 2.1, 4,
      1.5,
    ]);
    expect(stages.map((engine) => engine[0]!.stage)).toEqual(['whole relayed transfer on bankrun', 'whole relayed transfer on litesvm']);
    expect(stages[1]).toEqual([
      { stage: 'whole relayed transfer on litesvm', microseconds: 2_000 },
      { stage: 'ledger: engine execute', microseconds: 1_000 },
      { stage: 'plumbing: fetch, binding, JSON, journal, queue, ledger bookkeeping', microseconds: 900 },
      { stage: 'relay: policy', microseconds: 100 },
    ]);
  });

  it('moves every figure by what an emulator twice as slow and large implies, and nothing else', async () => {
    const base = (await runBenchmarks(SMOKE, fakeMeasurers(1))).figures;
    const slower = (await runBenchmarks(SMOKE, fakeMeasurers(2))).figures;
    // Rates (relay efficiency, relayed/s, throughput, journaled relays) halve; times and sizes (start-up, history, RSS) double.
    const rates = [
      ...NAMES.slice(0, 4),
      ...NAMES.slice(7, 13),
      "relay throughput with the state file's journal (32 clients)",
      'relayed calls of a loaded program (spl_noop) per relayed SPL transfer, litesvm',
    ];
    // Ratios of two sizes the larger emulator both doubles stay put.
    const unchanged = ['RSS per slot, bankrun', 'RSS kept per closed emulator, bankrun'];
    for (const [index, figure] of base.entries()) {
      const expected = rates.includes(figure.name) ? figure.ratio! / 2 : unchanged.includes(figure.name) ? figure.ratio! : figure.ratio! * 2;
      expect(slower[index]!.ratio!, figure.name).toBeCloseTo(expected, 10);
    }
    expect(slower.filter((figure) => figure.meets === false).map((figure) => figure.name)).toEqual([
      'start-up, bankrun (median ms)',
      'history p50 (large/small index)',
      'GET /Transaction/config over HTTP',
      'POST /Account/getaccountinfo over HTTP',
      'GET /Transaction/config, journal off',
      'POST /Account/getaccountinfo, journal off',
      "relay throughput with the state file's journal (32 clients)",
      'start-up with 5 programs and 39 account dumps, litesvm',
      'relayed calls of a loaded program (spl_noop) per relayed SPL transfer, litesvm',
      'cold start: import + first emulator (median ms)',
      '`relay-emulator start` to ready (median ms)',
      '`relay-emulator test-validator` to its first getLatestBlockhash (median ms)',
      "a user's suite: 50 vitest files, one emulator and one relayed transfer each (median s)",
    ]);
  });
});

describe('walletPageFigures', () => {
  it('reports the first test of a worker, and holds a later test’s added time to 3 bare pages', () => {
    const [first, later] = walletPageFigures({ bareMs: [100, 100, 100], fixtureMs: [500, 600, 700], perTestMs: [290, 310, 300] });
    expect(first).toMatchObject({ ratio: 6, target: 'report', meets: null });
    expect(later).toMatchObject({ ratio: 3, target: '≤ 3', meets: true });
    expect(walletPageFigures({ bareMs: [100], fixtureMs: [500], perTestMs: [301] })[1]!.meets).toBe(false);
  });
});
