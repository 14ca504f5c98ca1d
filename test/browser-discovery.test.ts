/**
 * How the page tests find a browser (support/find-browser.ts, issue 25.1): one variable, then
 * where Chromium and Chrome live on Debian, Ubuntu, macOS and Windows and in Playwright's cache;
 * when there is none, one message saying what to run. Probed against made-up file systems; the
 * real machine's answer is what test/e2e/docs-page.test.ts and test/e2e/ui-browser.test.ts launch.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_VARIABLE, browserCandidates, findBrowser, noBrowserMessage, type BrowserSearch } from './support/find-browser.ts';

const machine = (platform: NodeJS.Platform, present: string[], env: Record<string, string> = {}): BrowserSearch => ({
  env,
  platform,
  home: platform === 'win32' ? 'C:\\Users\\dev' : platform === 'darwin' ? '/Users/dev' : '/home/dev',
  playwrightChromium:
    platform === 'linux'
      ? '/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome'
      : platform === 'darwin'
        ? '/Users/dev/Library/Caches/ms-playwright/chromium-1255/chrome-mac/Chromium.app/Contents/MacOS/Chromium'
        : null,
  exists: (path) => present.includes(path),
});

describe('finding a browser for the page tests', () => {
  it('takes the one variable first, and says so when it names nothing', () => {
    expect(findBrowser(machine('linux', ['/opt/chrome', '/usr/bin/chromium'], { [BROWSER_VARIABLE]: '/opt/chrome' }))).toBe('/opt/chrome');
    expect(() => findBrowser(machine('linux', ['/usr/bin/chromium'], { [BROWSER_VARIABLE]: '/nowhere' }))).toThrow(
      `${BROWSER_VARIABLE} is /nowhere, which does not exist`,
    );
    // The two names the tests once read are not looked at.
    expect(findBrowser(machine('linux', [], { CHROMIUM_PATH: '/x', RELAY_EMULATOR_CHROMIUM: '/y' }))).toBeNull();
  });

  it.each([
    ['linux', '/usr/bin/chromium'],
    ['linux', '/usr/bin/chromium-browser'],
    ['linux', '/snap/bin/chromium'],
    ['linux', '/usr/bin/google-chrome-stable'],
    ['linux', '/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome'],
    ['darwin', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
    ['darwin', '/Users/dev/Applications/Chromium.app/Contents/MacOS/Chromium'],
    ['darwin', '/Users/dev/Library/Caches/ms-playwright/chromium-1255/chrome-mac/Chromium.app/Contents/MacOS/Chromium'],
  ] as const)('finds %s %s', (platform, path) => {
    expect(findBrowser(machine(platform, [path]))).toBe(path);
  });

  it("finds Chrome on Windows under Program Files or the user's AppData", () => {
    const env = { PROGRAMFILES: 'C:\\Program Files', LOCALAPPDATA: 'C:\\Users\\dev\\AppData\\Local' };
    const candidates = browserCandidates(machine('win32', [], env));
    expect(candidates.some((path) => path.startsWith('C:\\Program Files') && path.endsWith('chrome.exe'))).toBe(true);
    expect(candidates.some((path) => path.startsWith('C:\\Users\\dev\\AppData\\Local') && path.endsWith('chrome.exe'))).toBe(true);
    expect(findBrowser(machine('win32', [candidates[1]!], env))).toBe(candidates[1]);
  });

  it("prefers the system browser to Playwright's download on Linux, and Playwright's elsewhere", () => {
    const linux = machine('linux', ['/usr/bin/chromium', '/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome']);
    expect(findBrowser(linux)).toBe('/usr/bin/chromium');
    const mac = machine('darwin', [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Users/dev/Library/Caches/ms-playwright/chromium-1255/chrome-mac/Chromium.app/Contents/MacOS/Chromium',
    ]);
    expect(findBrowser(mac)).toMatch(/ms-playwright/);
  });

  it('says in one message what to run when there is none', () => {
    const message = noBrowserMessage(machine('linux', []), ['playwright-core install chromium: Error: getaddrinfo ENOTFOUND cdn.playwright.dev']);
    expect(message).toMatch(
      /^The browser tests need Chromium or Chrome, and none was found \(installing one failed: playwright-core install chromium: Error: getaddrinfo ENOTFOUND/,
    );
    expect(message).toContain('`npx playwright-core install chromium`');
    expect(message).toContain('`sudo apt-get install chromium`');
    expect(message).toContain(`set ${BROWSER_VARIABLE}`);
    expect(noBrowserMessage(machine('darwin', []), [])).toContain('install Google Chrome');
  });
});
