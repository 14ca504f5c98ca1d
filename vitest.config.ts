import { defineConfig } from 'vitest/config';

/**
 * The whole suite runs once per ledger engine: two projects that differ only in
 * RELAY_EMULATOR_ENGINE, which is the engine of every emulator a test creates without naming one
 * (and of the `relay-emulator start` children tests spawn). So a new test file runs on both engines
 * without doing anything. `npx vitest run --project litesvm` (or `bankrun`) runs one of them.
 *
 * Files that name their engines themselves (they compare engines, or pick them) run once, in the
 * litesvm project (the default engine's).
 */
const NAMES_ITS_ENGINES = [
  'src/ledger/**/*.test.ts',
  'test/gill-localnet.test.ts',
  'src/rpc/transaction-json.test.ts',
  'test/engine-selection.test.ts',
  'test/rpc-inner-instructions.test.ts',
];
const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/**
 * Files whose subject has nothing to do with the engine, and that are slow: they run once, in the
 * litesvm project (packing and installing the package, the command's signals, pages in a browser (docs and the web UI),
 * README snippets, benchmark arithmetic).
 */
const ENGINE_AGNOSTIC = [
  'test/package.test.ts',
  'test/examples.test.ts',
  'test/state-export.test.ts',
  'test/state-lock.test.ts',
  'test/conformance-port.test.ts',
  'test/error-texts.test.ts',
  'test/cli-ports.test.ts',
  'test/browser-discovery.test.ts',
  'test/server-timeouts.test.ts',
  'test/abuse-contract.test.ts',
  'test/cli-runner.test.ts',
  'test/docs-page.test.ts',
  'test/readme-snippets.test.ts',
  'test/kora-docs.test.ts',
  'test/bench-figures.test.ts',
  'test/ui-browser.test.ts',
  'test/ui-modules.test.ts',
  'test/start-refusals.test.ts',
  'test/git-install.test.ts',
];

export default defineConfig({
  test: {
    // Engine start-up and ed25519 work are CPU bound; two cores, so two workers.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'litesvm', include: ALL, env: { RUST_LOG: 'error', RELAY_EMULATOR_ENGINE: 'litesvm' } } },
      {
        extends: true,
        test: {
          name: 'bankrun',
          include: ALL,
          exclude: [...NAMES_ITS_ENGINES, ...ENGINE_AGNOSTIC],
          env: { RUST_LOG: 'error', RELAY_EMULATOR_ENGINE: 'bankrun' },
        },
      },
    ],
  },
});
