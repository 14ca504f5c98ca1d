import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled CLI's entry (.test-dist/adapters/cli/main.js, bundled as dist/ is) that spawned `relay-emulator` children run. */
    builtCli: string;
  }
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Inside the repository, so that the emulator finds its package's files (assets/, fixtures/,
 * openapi/, package.json) as from dist/ (src/base/assets.ts); and apart from dist/, which the
 * package tests' `npm pack` rebuilds while these children run.
 */
const OUT = '.test-dist';
const state = globalThis as { relayEmulatorTestBuild?: Promise<string> };

/**
 * Vitest global setup of the projects that spawn `relay-emulator` (e2e, package, bankrun): compiles
 * src/ once per run (as `npm run build` does, under a second without declarations), so each child starts from JS instead of transpiling the sources
 * through tsx at every start. Projects share one build: their setups run in the one main process.
 */
export default async function setup(project: TestProject): Promise<void> {
  state.relayEmulatorTestBuild ??= build();
  project.provide('builtCli', await state.relayEmulatorTestBuild);
}

async function build(): Promise<string> {
  rmSync(`${REPO}${OUT}`, { recursive: true, force: true });
  // The package's own build (scripts/build.mjs: esbuild's bundle), without the declarations.
  await promisify(execFile)(process.execPath, [`${REPO}scripts/build.mjs`, '--outdir', OUT, '--no-declarations'], { cwd: REPO });
  return `${REPO}${OUT}/adapters/cli/main.js`;
}
