/**
 * Chromium or Chrome, driven by playwright-core, for the page tests: found (or installed) by
 * find-browser.ts, whose one variable is RELAY_EMULATOR_BROWSER. The flags keep it from calling
 * home, which on a closed network makes it stall; each launch gets a fresh profile.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ensureBrowser } from './find-browser.ts';

/** Screenshots and accessibility reports (gitignored). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/ui/', import.meta.url));

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export async function launchChromium(): Promise<Browser> {
  const executablePath = await ensureBrowser();
  const profile = mkdtempSync(join(tmpdir(), 'relay-emulator-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: BROWSER_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * What went wrong in a page: uncaught errors and console errors (a fetch that failed, a script or
 * style the Content-Security-Policy refused). Read it at the end of a test: it should be empty.
 */
export function pageTrouble(page: Page): string[] {
  const trouble: string[] = [];
  page.on('pageerror', (error) => trouble.push(`error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') trouble.push(`console: ${message.text()}`);
  });
  return trouble;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

declare global {
  // axe-core, once injected into a page.
  var axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core (WCAG 2 A/AA rules and best practices) in the page; saves the report; answers the violations. */
export async function accessibilityViolations(page: Page, name: string): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern
  // (a <script> tag would be refused, as it should be): the page runs under its real policy.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await globalThis.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => ({ target: node.target })) }));
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${name}.axe.json`), JSON.stringify(violations, null, 2));
  return violations;
}
