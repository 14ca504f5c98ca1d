import { ownModuleFile } from '../base/assets.ts';
import type { Plugin } from 'vite';
import type { Vitest } from 'vitest/node';
import { SponsorCostsReporter, type SponsorCostsOptions } from './sponsor-costs-reporter.ts';

export type { SponsorCostsOptions } from './sponsor-costs-reporter.ts';
export type { SponsorCostReport, SponsorCostRow, SponsorCostFigures } from './report.ts';

/** The setup file beside this module: .ts from the sources, .js from dist/ (a build entry of its own). */
const SETUP = ownModuleFile('vitest/sponsor-costs-setup');
const registered = new WeakSet<Vitest>();

/**
 * What a sponsor pays, per test: `defineConfig({ plugins: [sponsorCosts()] })`. For every test it
 * records what the relay sponsored while that test ran, from every emulator made in process, and at
 * the end of the run writes `sponsor-costs.json` (`{ version, engine, tests: [{ file, test,
 * transactions, feeLamports, rentLamports, sponsorLamports, computeUnits }], totals }`) and prints
 * the costliest tests. `relay-emulator costs update|check|diff` compare it with the committed
 * `.sponsor-costs.json`.
 */
export function sponsorCosts(options: SponsorCostsOptions = {}): Plugin {
  return {
    name: 'relay-emulator:sponsor-costs',
    config: () => ({ test: { setupFiles: [SETUP] } }),
    // Vitest calls it once per project, before it makes its reporters: the reporter is added once, to the run's.
    configureVitest({ vitest }: { vitest: Vitest }) {
      if (registered.has(vitest)) return;
      registered.add(vitest);
      (vitest.config.reporters as unknown[]).push(new SponsorCostsReporter(vitest.config.root, options));
    },
  } as Plugin;
}
