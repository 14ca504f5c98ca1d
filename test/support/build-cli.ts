import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled CLI's entry (.test-dist/adapters/cli/main.js) that spawned `relay-emulator` children run. */
    builtCli: string;
  }
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Beside dist/, at the same depth, so that what the emulator finds relative to its modules (assets/,
 * fixtures/, openapi/, package.json) resolves as from dist/; and apart from dist/, which the package
 * tests' `npm pack` rebuilds while these children run.
 */
const OUT = '.test-dist';
const state = globalThis as { relayEmulatorTestBuild?: Promise<string> };

/**
 * Vitest global setup of the projects that spawn `relay-emulator` (e2e, package, bankrun): compiles
 * src/ once per run (tsc, about 5 s), so each child starts from JS instead of transpiling the sources
 * through tsx at every start. Projects share one build: their setups run in the one main process.
 */
export default async function setup(project: TestProject): Promise<void> {
  state.relayEmulatorTestBuild ??= build();
  project.provide('builtCli', await state.relayEmulatorTestBuild);
}

async function build(): Promise<string> {
  rmSync(`${REPO}${OUT}`, { recursive: true, force: true });
  await promisify(execFile)(
    process.execPath,
    [`${REPO}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json', '--outDir', OUT, '--declaration', 'false', '--sourceMap', 'false'],
    { cwd: REPO },
  );
  return `${REPO}${OUT}/adapters/cli/main.js`;
}
