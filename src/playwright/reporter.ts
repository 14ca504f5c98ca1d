import { relative, resolve } from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { EMULATOR_VERSION } from '../base/version.ts';
import { makeReport, type SponsorCostRow, writeReport } from '../vitest/report.ts';
import { type AttachedCosts, SPONSOR_COSTS_ATTACHMENT } from './attachment.ts';

export interface PlaywrightSponsorCostsOptions {
  /** Where the report is written, relative to the config's folder. Default `sponsor-costs.json`. */
  file?: string;
}

/**
 * `relay-emulator/playwright/reporter`: reads what `relay-emulator/playwright`'s fixture attached to
 * each test and writes `sponsor-costs.json`, the report relay-emulator/vitest writes (one row per
 * test, a retry's last run counting), for `relay-emulator costs check`. In playwright.config:
 * `reporter: [['list'], ['relay-emulator/playwright/reporter']]`.
 */
export default class SponsorCostsReporter implements Reporter {
  readonly #rows = new Map<string, SponsorCostRow>();
  readonly #file: string;
  #root = process.cwd();
  #engine = 'unknown';

  constructor(options: PlaywrightSponsorCostsOptions = {}) {
    this.#file = options.file ?? 'sponsor-costs.json';
  }

  onBegin(config: FullConfig): void {
    this.#root = config.configFile ? resolve(config.configFile, '..') : config.rootDir;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const attachment = result.attachments.find((each) => each.name === SPONSOR_COSTS_ATTACHMENT && each.body);
    if (!attachment?.body) return;
    const costs = JSON.parse(attachment.body.toString('utf8')) as AttachedCosts;
    this.#engine = costs.engine;
    const file = relative(this.#root, test.location.file);
    this.#rows.set(`${file}\u0000${costs.test}`, { file, test: costs.test, ...costs.figures });
  }

  onEnd(): void {
    if (this.#rows.size === 0) return;
    const report = makeReport([...this.#rows.values()], EMULATOR_VERSION, this.#engine);
    try {
      writeReport(resolve(this.#root, this.#file), report, "relay-emulator/playwright/reporter's file");
    } catch (error) {
      process.stderr.write(`relay-emulator/playwright: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}
