import type { EngineFactory } from './engine.ts';

/**
 * Each engine is loaded when first used: the native library of the one not picked is never
 * loaded, so a platform that has a build of only one (litesvm ships linux-arm64, bankrun does not)
 * still runs that one.
 */
export const createBankrunEngine: EngineFactory = async (genesis, settings) => (await import('./bankrun-engine.ts')).createBankrunEngine(genesis, settings);
export const createLiteSvmEngine: EngineFactory = async (genesis, settings) => (await import('./litesvm-engine.ts')).createLiteSvmEngine(genesis, settings);

/** The engines a user can pick by name (option `engine`, `--engine`, `RELAY_EMULATOR_ENGINE`). */
export const ENGINES = {
  bankrun: createBankrunEngine,
  litesvm: createLiteSvmEngine,
} as const satisfies Record<string, EngineFactory>;

export type EngineName = keyof typeof ENGINES;

export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];

/**
 * The engine used when nothing else is asked for. LiteSVM, not the design card's bankrun: it runs
 * the programs mainnet runs today (SPL Token as p-token, SIMD-0266), which bankrun's VM cannot, and
 * bankrun is deprecated upstream since March 2025 (README, "Which ledger engine").
 */
export const DEFAULT_ENGINE: EngineName = 'litesvm';

/** The environment variable that picks the default engine, for the CLI and for a whole test run. */
export const ENGINE_ENV = 'RELAY_EMULATOR_ENGINE';

export function isEngineName(value: unknown): value is EngineName {
  return typeof value === 'string' && Object.hasOwn(ENGINES, value);
}

/**
 * The engine used when an emulator is created without one: `RELAY_EMULATOR_ENGINE` when set (so
 * that a whole test run can switch engines without touching a test), else {@link DEFAULT_ENGINE}.
 * Throws on an unknown name rather than fall back silently.
 */
export function defaultEngineName(env: Record<string, string | undefined> | undefined = globalThis.process?.env): EngineName {
  const named = env?.[ENGINE_ENV];
  if (named === undefined || named === '') return DEFAULT_ENGINE;
  if (!isEngineName(named)) throw new RangeError(`${ENGINE_ENV}=${named} names no engine; use one of ${ENGINE_NAMES.join(', ')}`);
  return named;
}

/** A factory for an engine option: a name, a factory of one's own, or nothing (the default). */
export function engineFactory(engine: EngineName | EngineFactory | undefined): EngineFactory {
  if (typeof engine === 'function') return engine;
  const name = engine ?? defaultEngineName();
  if (!isEngineName(name)) throw new RangeError(`engine '${String(name)}' is not one of ${ENGINE_NAMES.join(', ')}`);
  return ENGINES[name];
}
