import { createRequire } from 'node:module';
import { ownModuleFile } from '../base/assets.ts';
import type { ConformanceCheck } from './check.ts';
import type { CommandIo } from './command.ts';
import type { ConformanceContext } from './context.ts';
import type { ConformanceOptions, ConformanceReport } from './types.ts';

/**
 * The conformance kit as the package's root exports it, loaded on first use: `import
 * 'relay-emulator'` for an emulator does not pay for the kit (its checks build transactions with
 * spl-token and check answers with ajv: ~250 ms of a cold start, BENCHMARKS.md, issue 36).
 * `relay-emulator/conformance` exports the kit itself.
 */

/** Runs the conformance checks against a base URL (see `relay-emulator/conformance`). */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  return (await import('./run-conformance.ts')).runConformance(options);
}

/** `relay-emulator conformance`, as a function: its exit code (see `relay-emulator/conformance`). */
export async function runConformanceCommand(argv: string[], io: CommandIo = {}): Promise<number> {
  return (await import('./command.ts')).runConformanceCommand(argv, io);
}

/**
 * Every check that talks to the target, in run order: an array loaded on its first read (a
 * synchronous require of the kit's ES module, node ≥ 20.19), the same array
 * `relay-emulator/conformance` exports.
 */
export const TARGET_CHECKS: readonly ConformanceCheck<ConformanceContext>[] = lazyArray(
  () =>
    (createRequire(import.meta.url)(ownModuleFile('conformance/checks/index')) as typeof import('./checks/index.ts'))
      .TARGET_CHECKS as ConformanceCheck<ConformanceContext>[],
);

/** A read-only array whose elements are loaded on the first read of anything about it. */
function lazyArray<T>(load: () => T[]): readonly T[] {
  let loaded: T[] | undefined;
  const real = () => (loaded ??= load());
  return new Proxy([] as T[], {
    get: (_, key) => {
      const array = real();
      const value = Reflect.get(array, key, array);
      return typeof value === 'function' && key !== 'constructor' ? value.bind(array) : value;
    },
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(real(), key),
    set: () => false,
    deleteProperty: () => false,
    defineProperty: () => false,
  });
}
