// The dapp's Playwright config: Vite builds the dapp and serves the build; relay-emulator/playwright's
// fixtures need nothing here but the browser (Debian's chromium, or PLAYWRIGHT_CHROMIUM) and, for the
// sponsor-cost report, its reporter.
import { defineConfig } from '@playwright/test';

const DAPP = 'http://127.0.0.1:4173';

export default defineConfig({
  testDir: 'tests',
  reporter: [['list'], ['relay-emulator/playwright/reporter']],
  // Its own server each run: never one already on the port (another project's vite preview).
  webServer: { command: 'npm run build && npm run preview', url: DAPP, reuseExistingServer: false, timeout: 120_000 },
  use: {
    // The dapp's origin: the wallet answers pages of this origin only.
    baseURL: DAPP,
    launchOptions: { executablePath: process.env.PLAYWRIGHT_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] },
  },
});
