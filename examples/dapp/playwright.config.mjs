// The dapp's Playwright config: relay-emulator/playwright's fixtures need nothing here but the
// browser (Debian's chromium, or PLAYWRIGHT_CHROMIUM) and, for the sponsor-cost report, its reporter.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests',
  reporter: [['list'], ['relay-emulator/playwright/reporter']],
  use: {
    // The dapp's origin: the wallet answers pages of this origin only.
    baseURL: 'http://dapp.localhost',
    launchOptions: { executablePath: process.env.PLAYWRIGHT_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] },
  },
});
