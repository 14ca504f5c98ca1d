import type { SponsorCostFigures } from '../vitest/report.ts';

/** The attachment the fixture leaves on each test, which the reporter reads. */
export const SPONSOR_COSTS_ATTACHMENT = 'relay-emulator-sponsor-costs';

export interface AttachedCosts {
  /** The test's title path, `describe > test`. */
  test: string;
  engine: string;
  figures: SponsorCostFigures;
}
