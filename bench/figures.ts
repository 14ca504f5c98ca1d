/**
 * Every figure of the benchmarks as a pure function of what was measured: the bench modules
 * measure (the engines, HTTP, child processes), these turn measurements into ratios and verdicts. So a
 * test can feed measurements and see each figure follow them (test/bench-figures.test.ts).
 */
import { median, type Figure } from './stats.ts';

/** The engines the figures are made for, as bench modules name them. */
export type BenchEngine = 'bankrun' | 'litesvm';

/** One paired round: the bare engine's transfers, then the relay's, moments apart. */
export interface TransferRound {
  transfers: number;
  relaySeconds: number;
  relayCpuMicros: number;
  bareSeconds: number;
  bareCpuMicros: number;
}

/** Pre-built transfers relayed through the whole emulator against the same straight to the bare engine. */
export interface RelayEfficiencyMeasurement {
  engine: BenchEngine;
  rounds: TransferRound[];
}

/** Relayed transfers a second that the LiteSVM engine must reach in process. */
export const LITESVM_RELAYED_PER_SECOND = 400;

/**
 * Two figures per engine: relay efficiency (relayed ÷ bare, the median of per-round ratios; at
 * least 0.8 on LiteSVM) and relayed transfers a second (at least 400 on LiteSVM). bankrun's
 * are reported beside them.
 */
export function relayEfficiencyFigures({ engine, rounds }: RelayEfficiencyMeasurement): Figure[] {
  const relayRates = rounds.map((round) => round.transfers / round.relaySeconds);
  const bareRates = rounds.map((round) => round.transfers / round.bareSeconds);
  const ratios = relayRates.map((rate, index) => rate / bareRates[index]!);
  const ratio = median(ratios);
  const relayRate = median(relayRates);
  const cpu = (micros: number[]) => `${median(micros).toFixed(0)} µs CPU/transfer`;
  const litesvm = engine === 'litesvm';
  return [
    {
      name: `relay efficiency, ${engine} (transfers/s)`,
      measured: `${relayRate.toFixed(0)}/s relayed, ${cpu(rounds.map((round) => round.relayCpuMicros))}`,
      baseline: `${median(bareRates).toFixed(0)}/s bare ${engine}, ${cpu(rounds.map((round) => round.bareCpuMicros))}`,
      ratio,
      target: litesvm ? '≥ 0.8' : 'report',
      meets: litesvm ? ratio >= 0.8 : null,
      note: `paired ratios by round ${ratios.map((value) => value.toFixed(2)).join(', ')}`,
    },
    {
      name: `relayed transfers/s in process, ${engine}`,
      measured: `${relayRate.toFixed(0)}/s`,
      baseline: `${LITESVM_RELAYED_PER_SECOND}/s`,
      ratio: relayRate / LITESVM_RELAYED_PER_SECOND,
      target: litesvm ? '≥ 1' : 'report',
      meets: litesvm ? relayRate >= LITESVM_RELAYED_PER_SECOND : null,
    },
  ];
}

/** Milliseconds to a first answer, one bare engine start and one emulator start per round. */
export interface StartupMeasurement {
  engine: BenchEngine;
  bareMs: number[];
  emulatorMs: number[];
}

export function startupFigure({ engine, bareMs, emulatorMs }: StartupMeasurement): Figure {
  // The median of per-round ratios: each round's two starts are moments apart, so a slow stretch
  // of the machine lands on both sides of one ratio rather than on one side of the medians.
  const ratio = median(emulatorMs.map((ms, round) => ms / bareMs[round]!));
  const bankrun = engine === 'bankrun';
  return {
    name: `start-up, ${engine} (median ms)`,
    measured: `${median(emulatorMs).toFixed(1)} ms emulator`,
    baseline: `${median(bareMs).toFixed(1)} ms bare ${engine}`,
    ratio,
    target: bankrun ? '≤ 1.5' : 'report',
    meets: bankrun ? ratio <= 1.5 : null,
    ...(bankrun ? {} : { note: 'each round closes its emulator, so the next reuses its LiteSVM bank (reset); a bare start loads the SPL programs anew every time' }),
  };
}

/** gethistory request times against an index of `large` entries and one of `small`, taken in turns. */
export interface HistoryMeasurement {
  small: number;
  large: number;
  smallMs: number[];
  largeMs: number[];
}

export function historyFigure({ small, large, smallMs, largeMs }: HistoryMeasurement): Figure {
  const ratio = median(largeMs) / median(smallMs);
  return {
    name: 'history p50 (large/small index)',
    measured: `${median(largeMs).toFixed(3)} ms @ ${large}`,
    baseline: `${median(smallMs).toFixed(3)} ms @ ${small}`,
    ratio,
    target: '≤ 1.5',
    meets: ratio <= 1.5,
  };
}

/** The servers measured over HTTP, each against its bare baseline (GET or POST). */
export const THROUGHPUT_TARGETS = ['calibration', 'adapter', 'config', 'info', 'quietConfig', 'quietInfo'] as const;
export type ThroughputTarget = (typeof THROUGHPUT_TARGETS)[number];
export type ThroughputBaseline = 'bare' | 'barePost';
export const BASELINE_OF: Record<ThroughputTarget, ThroughputBaseline> = { calibration: 'bare', adapter: 'bare', config: 'bare', info: 'barePost', quietConfig: 'bare', quietInfo: 'barePost' };

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
      baseline: `${median(sample.map((round) => round.baseRate)).toFixed(0)} req/s, ${bareMicros.toFixed(0)} µs CPU/req (bare ${BASELINE_OF[target] === 'bare' ? 'GET' : 'POST'})`,
      ratio,
      target: '≥ 0.5',
      meets: ratio >= 0.5,
      note: `paired ratios by round ${ratios.map((value) => value.toFixed(2)).join(', ')}; CPU efficiency (bare CPU per request / emulator CPU per request) = ${(bareMicros / micros).toFixed(2)}`,
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

/** RSS in bytes before and after, from a child process. */
export interface RssProbe {
  before: number;
  after: number;
}

export interface MemoryMeasurement {
  engine: BenchEngine;
  /** One bare engine start. */
  bare: RssProbe;
  /** One emulator. */
  emulator: RssProbe;
  /** `churn` emulators created and closed. */
  churned: RssProbe;
  churn: number;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const MB = 1024 * 1024;
/** RSS an emulator created and closed may leave behind on LiteSVM. */
export const LITESVM_CHURN_BYTES = 2 * MB;

export function memoryFigures({ engine, bare, emulator, churned, churn }: MemoryMeasurement): Figure[] {
  const bareCost = bare.after - bare.before;
  const emulatorCost = emulator.after - emulator.before;
  const growth = churned.after - churned.before;
  const perEmulator = growth / churn;
  const litesvm = engine === 'litesvm';
  return [
    { name: `RSS of one emulator, ${engine}`, measured: mb(emulatorCost), baseline: `${mb(bareCost)} bare ${engine}`, ratio: emulatorCost / bareCost, target: 'report', meets: null },
    {
      name: `RSS growth, ${churn} emulators created+closed, ${engine}`,
      measured: `${mb(growth)} (${mb(perEmulator)} each)`,
      baseline: `${mb(LITESVM_CHURN_BYTES)} per emulator`,
      ratio: perEmulator / LITESVM_CHURN_BYTES,
      target: litesvm ? '≤ 1' : 'report',
      meets: litesvm ? perEmulator <= LITESVM_CHURN_BYTES : null,
      note: litesvm
        ? 'a closed emulator leaves its LiteSVM bank (~7 MB of loaded programs) to the next, reset; without that reuse each bank stays in RSS until a full collection, and the allocator keeps its pages after'
        : 'bankrun leaks its bank and a clock thread on every start(), and has no shutdown',
    },
  ];
}

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

/** One engine's relay-memory run (bench/relay-memory-probe.ts): RSS in bytes before, after every `step` transfers, and after a reset. */
export interface RelayMemoryProbe {
  engine: string;
  transfers: number;
  step: number;
  clients: number;
  before: number;
  marks: number[];
  afterReset: number;
  /** The ledger's slot at the end: how many slots the transfers took. */
  slots: number;
  seconds: number;
  /** RSS around `slots` one-slot warps of a fresh emulator (a process of its own). */
  warps: { slots: number; before: number; after: number };
  /** RSS around `emulators` emulators made, warped `slotsEach` slots and closed, one after the other. */
  recreated: { emulators: number; slotsEach: number; before: number; after: number };
}

/** The growth target of a relayed transfer on the default engine, records and history included. */
export const MAX_KB_PER_TRANSFER = 15;

/** KB of RSS a relayed transfer adds, over the whole run. */
export function kbPerTransfer(probe: RelayMemoryProbe): number {
  return (probe.marks[probe.marks.length - 1]! - probe.before) / 1024 / probe.transfers;
}

/** KB of RSS a one-slot warp adds. */
export function kbPerSlot(probe: RelayMemoryProbe): number {
  return (probe.warps.after - probe.warps.before) / 1024 / probe.warps.slots;
}

/**
 * Per engine: RSS growth per relayed transfer (at most 15 KB on the default engine; the others
 * are reported), what a slot costs, and what a closed emulator keeps of its slots (ratio: kept
 * over what its slots cost; 1 means closing gives nothing back).
 */
export function relayMemoryFigures(probes: RelayMemoryProbe[], defaultEngine: string): Figure[] {
  return probes.flatMap((probe) => {
    const perTransfer = kbPerTransfer(probe);
    const isDefault = probe.engine === defaultEngine;
    const perSlot = kbPerSlot(probe);
    const { emulators, slotsEach, before, after } = probe.recreated;
    const keptPerEmulator = (after - before) / emulators;
    const slotsCost = perSlot * 1024 * slotsEach;
    return [
      {
        name: `RSS per relayed transfer, ${probe.engine}`,
        measured: `${perTransfer.toFixed(1)} KB (${mb(probe.marks[probe.marks.length - 1]! - probe.before)} / ${probe.transfers})`,
        baseline: `${mb(probe.before)} before`,
        ratio: perTransfer / MAX_KB_PER_TRANSFER,
        target: isDefault ? `≤ ${MAX_KB_PER_TRANSFER} KB (ratio ≤ 1)` : 'report',
        meets: isDefault ? perTransfer <= MAX_KB_PER_TRANSFER : null,
      },
      {
        name: `RSS per slot, ${probe.engine}`,
        measured: `${perSlot.toFixed(1)} KB (${probe.warps.slots} one-slot warps)`,
        baseline: `${perTransfer.toFixed(1)} KB per transfer`,
        ratio: perSlot / Math.max(perTransfer, 0.001),
        target: 'report',
        meets: null,
      },
      {
        name: `RSS kept per closed emulator, ${probe.engine}`,
        measured: `${mb(keptPerEmulator)} (${emulators} × ${slotsEach} slots)`,
        baseline: `${mb(slotsCost)} its slots cost`,
        ratio: keptPerEmulator / Math.max(slotsCost, 1),
        target: 'report',
        meets: null,
        note: 'ratio ≥ 1: closing an engine gives back none of its slots (the start-up an engine costs comes on top); < 1: it gives some back',
      },
    ];
  });
}

/** The run step by step: RSS after each `step` transfers, growth per transfer within the step, and after the reset. */
export function relayMemoryLines(probe: RelayMemoryProbe): string[] {
  const lines = [`${probe.engine}: ${probe.transfers} transfers by ${probe.clients} callers in ${probe.seconds.toFixed(1)} s, ${probe.slots} slots; RSS before ${mb(probe.before)}`];
  let previous = probe.before;
  for (const [index, mark] of probe.marks.entries()) {
    const done = Math.min((index + 1) * probe.step, probe.transfers);
    const count = done - index * probe.step;
    lines.push(`  after ${String(done).padStart(6)}: ${mb(mark).padStart(9)}  (+${((mark - previous) / 1024 / count).toFixed(1)} KB per transfer)`);
    previous = mark;
  }
  lines.push(`  after reset:  ${mb(probe.afterReset).padStart(9)}`);
  lines.push(`  ${probe.warps.slots} one-slot warps: ${mb(probe.warps.after)} (+${kbPerSlot(probe).toFixed(1)} KB per slot)`);
  const { emulators, slotsEach, before, after } = probe.recreated;
  lines.push(`  ${emulators} emulators, ${slotsEach} slots each, closed: +${mb(after - before)} (${mb((after - before) / emulators)} kept per emulator)`);
  return lines;
}

/** Relays per second from concurrent clients without a state file and with one (journaled, fsync'd), one of each per round. */
export interface JournalMeasurement {
  clients: number;
  plainRates: number[];
  journaledRates: number[];
  /** Journal bytes written per relay, before compaction. */
  journalBytesPerRelay: number;
}

export function journalFigure({ clients, plainRates, journaledRates, journalBytesPerRelay }: JournalMeasurement): Figure {
  const ratios = journaledRates.map((rate, round) => rate / plainRates[round]!);
  const ratio = median(ratios);
  return {
    name: `relay throughput with the state file's journal (${clients} clients)`,
    measured: `${median(journaledRates).toFixed(0)}/s journaled`,
    baseline: `${median(plainRates).toFixed(0)}/s no state file`,
    ratio,
    target: '≥ 0.8',
    meets: ratio >= 0.8,
    note: `paired ratios by round ${ratios.map((value) => value.toFixed(2)).join(', ')}; every change fdatasync'd before its answer (group commit), ${(journalBytesPerRelay / 1024).toFixed(1)} KB of journal per relay before compaction`,
  };
}
