import { defineConfig } from 'vitest/config';
import ProjectsSequencer from './test/support/projects-sequencer.ts';

/**
 * Four projects; where a test file lives and how it is named say which run it (CONTRIBUTING.md, "The tests"):
 *
 * - `fast` (`npm test`): unit tests and in-process tests (MSW, a loopback port, the real ledger) on
 *   the default engine, LiteSVM. Everything not below.
 * - `e2e` (`npm run test:e2e`): test/e2e/, tests that spawn `relay-emulator` or drive a browser.
 * - `package` (`npm run test:package`): test/package/, tests that install something: the packed
 *   tarball, a git install, the judge projects of test/real-clients/ (Light, lookup tables, Kora's SDK).
 * - `bankrun` (`npm run test:engines`): every `*.engines.test.ts`, wherever it lives, again on the
 *   second engine. A file opts in by that name when what it checks goes through the ledger (relays,
 *   RPC reads, restarts, real programs); its first run is in its own folder's project, on LiteSVM.
 *
 * `npm run test:all` runs the four (.ci/run). RELAY_EMULATOR_ENGINE is the engine of every emulator a
 * test creates without naming one, and of the `relay-emulator start` children tests spawn; the
 * projects that spawn children compile the CLI once per run first (test/support/build-cli.ts).
 */
const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts'];
const E2E = 'test/e2e/**/*.test.ts';
const PACKAGE = 'test/package/**/*.test.ts';
const ENGINES = '**/*.engines.test.ts';
const BUILD_CLI = './test/support/build-cli.ts';
const PACK_TARBALL = './test/support/pack-tarball.ts';
/** After each file, web3.js's PubSub sockets stop reconnecting to emulators that closed (decision 0006, the fast project's `isolate: false`). */
const CLOSE_PUBSUB_CLIENTS = './test/support/close-pubsub-clients.ts';
const env = (engine: string) => ({ RUST_LOG: 'error', RELAY_EMULATOR_ENGINE: engine });

export default defineConfig({
  test: {
    // Engine start-up and ed25519 work are CPU bound; two cores, so two workers.
    pool: 'forks',
    maxWorkers: 2,
    // The second names any file whose worker died under it (vitest says only "Worker exited unexpectedly").
    reporters: ['default', './test/support/unfinished-reporter.ts'],
    // The package project's long installs first, the fast project's short files last (test/support/projects-sequencer.ts).
    sequence: { sequencer: ProjectsSequencer },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      // A worker's fast files share their imports (isolate: false): ~50 s instead of ~130 s, which keeps
      // .ci/run with Node 22 and 24 under 15 minutes (decision 0006); the setup file stops what leaked.
      {
        extends: true,
        test: { name: 'fast', include: ALL, exclude: [E2E, PACKAGE], env: env('litesvm'), isolate: false, setupFiles: [CLOSE_PUBSUB_CLIENTS] },
      },
      { extends: true, test: { name: 'e2e', include: [E2E], env: env('litesvm'), globalSetup: [BUILD_CLI] } },
      { extends: true, test: { name: 'package', include: [PACKAGE], env: env('litesvm'), globalSetup: [BUILD_CLI, PACK_TARBALL] } },
      { extends: true, test: { name: 'bankrun', include: [ENGINES], env: env('bankrun'), globalSetup: [BUILD_CLI] } },
    ],
  },
});
