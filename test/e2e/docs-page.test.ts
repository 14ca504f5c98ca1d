/**
 * The /docs page in a real browser (Chromium or Chrome, driven by playwright-core: support/find-browser.ts): it renders the
 * contract at /docs and at /docs/, and asks nothing of any origin but the emulator's (its
 * Content-Security-Policy would refuse it, and the test would see the refusal).
 */
import { readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createRelayEmulator, type RelayEmulator } from '../../src/index.ts';
import { BROWSER_ARGS } from '../support/browser.ts';
import { ensureBrowser } from '../support/find-browser.ts';

const TITLE = (parse(readFileSync(new URL('../../openapi/relay.yaml', import.meta.url), 'utf8')) as { info: { title: string } }).info.title;

describe('/docs in a browser', () => {
  let emulator: RelayEmulator;
  let browser: Browser;

  beforeAll(async () => {
    emulator = await createRelayEmulator();
    browser = await chromium.launch({ executablePath: await ensureBrowser(), args: BROWSER_ARGS });
  }, 15 * 60_000);
  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
  });

  it.each(['/docs', '/docs/'])(
    'renders the contract at %s, fetching nothing from anywhere else',
    async (path) => {
      const origin = emulator.loopbackOrigin!;
      const page = await browser.newPage();
      const requested: string[] = [];
      const failed: string[] = [];
      const violations: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`));
      page.on('console', (message) => {
        if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
      });
      try {
        const response = await page.goto(`${origin}${path}`);
        expect(response?.status()).toBe(200);
        // Redoc renders openapi/relay.yaml: its title, and each operation as a section.
        await page.locator('h1', { hasText: TITLE }).waitFor({ timeout: 30_000 });
        await page.locator('[data-section-id="operation/emulatorReset"]').waitFor({ state: 'attached', timeout: 30_000 });
        expect(await page.title()).toBe('relay-emulator API reference');
        const offOrigin = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
        expect(offOrigin).toEqual([]);
        expect(requested).toEqual(expect.arrayContaining([`${origin}/openapi.yaml`, `${origin}/docs/redoc.standalone.js`]));
        expect(failed).toEqual([]);
        expect(violations).toEqual([]);
      } finally {
        await page.close();
      }
    },
    60_000,
  );
});
