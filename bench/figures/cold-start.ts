/** Cold start (bench/cold-start.ts): the package's import and first emulator, and the command's start-up, against bare LiteSVM. */
import { median, type Figure } from '../stats.ts';

/** Milliseconds per round, each measured in fresh processes, the two sides of a round moments apart. */
export interface ColdStartMeasurement {
  /** `import('relay-emulator')` and the first `createRelayEmulator()`. */
  importMs: number[];
  /** `import('litesvm')` and `new LiteSVM()`. */
  bareImportMs: number[];
  /** `relay-emulator start` until its ready file exists. */
  startMs: number[];
  /** A node that imports litesvm, makes a LiteSVM and listens, until its ready file exists. */
  bareStartMs: number[];
  /** `relay-emulator test-validator` (a fresh ledger) until getLatestBlockhash answers. */
  validatorMs: number[];
  /** A node that imports litesvm and answers getLatestBlockhash over HTTP, until it does. */
  bareValidatorMs: number[];
}

/** The cold-start targets of issue 36. */
export const COLD_START_TARGET = 2.5;
export const START_TO_READY_TARGET = 2;
/** Issue 46: test-validator's start to its first getLatestBlockhash answer. */
export const VALIDATOR_START_TARGET = 2;

export function coldStartFigures(measured: ColdStartMeasurement): Figure[] {
  const pairs = (side: number[], bare: number[]) => median(side.map((ms, round) => ms / bare[round]!));
  const each = (side: number[], bare: number[]) => side.map((ms, round) => (ms / bare[round]!).toFixed(2)).join(', ');
  const importRatio = pairs(measured.importMs, measured.bareImportMs);
  const startRatio = pairs(measured.startMs, measured.bareStartMs);
  const validatorRatio = pairs(measured.validatorMs, measured.bareValidatorMs);
  return [
    {
      name: 'cold start: import + first emulator (median ms)',
      measured: `${median(measured.importMs).toFixed(0)} ms`,
      baseline: `${median(measured.bareImportMs).toFixed(0)} ms import litesvm + new LiteSVM()`,
      ratio: importRatio,
      target: `≤ ${COLD_START_TARGET}`,
      meets: importRatio <= COLD_START_TARGET,
      note: `fresh processes, ${measured.importMs.length} paired rounds; ratios ${each(measured.importMs, measured.bareImportMs)}`,
    },
    {
      name: '`relay-emulator start` to ready (median ms)',
      measured: `${median(measured.startMs).toFixed(0)} ms`,
      baseline: `${median(measured.bareStartMs).toFixed(0)} ms node importing litesvm and listening`,
      ratio: startRatio,
      target: `≤ ${START_TO_READY_TARGET}`,
      meets: startRatio <= START_TO_READY_TARGET,
      note: `from spawn to the ready file, ${measured.startMs.length} paired rounds; ratios ${each(measured.startMs, measured.bareStartMs)}`,
    },
    {
      name: '`relay-emulator test-validator` to its first getLatestBlockhash (median ms)',
      measured: `${median(measured.validatorMs).toFixed(0)} ms`,
      baseline: `${median(measured.bareValidatorMs).toFixed(0)} ms node importing litesvm and answering it over HTTP`,
      ratio: validatorRatio,
      target: `≤ ${VALIDATOR_START_TARGET}`,
      meets: validatorRatio <= VALIDATOR_START_TARGET,
      note:
        `from spawn, polled every 5 ms (anchor test polls every 100 ms, for up to 5,000 ms); ${measured.validatorMs.length} paired rounds; ` +
        `ratios ${each(measured.validatorMs, measured.bareValidatorMs)}`,
    },
  ];
}
