/** The ledger engines the benchmarks measure, by name: every engine the project has. */
import { createBankrunEngine, createLiteSvmEngine, type EngineFactory } from '../src/index.ts';

export const BENCH_ENGINES: Record<string, EngineFactory> = {
  bankrun: createBankrunEngine,
  litesvm: createLiteSvmEngine,
};

/** The default engine, the one the targets are set for. */
export const DEFAULT_BENCH_ENGINE = 'bankrun';
