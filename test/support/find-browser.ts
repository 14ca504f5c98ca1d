/**
 * The browser the page tests drive through playwright-core (test/e2e/docs-page.test.ts,
 * test/e2e/ui-browser.test.ts): one variable, then the places Chromium and Chrome live on common
 * machines, then Playwright's own download; failing those, one is installed the way the platform
 * allows; failing that, one message says what to run.
 *
 * Looked for, in order:
 * 1. RELAY_EMULATOR_BROWSER: a Chromium or Chrome executable (an error when it names nothing);
 * 2. Debian and Ubuntu (apt, snap): /usr/bin/chromium, chromium-browser, google-chrome(-stable),
 *    /snap/bin/chromium;
 * 3. Playwright's browser cache, where `npx playwright-core install chromium` puts it (its own path
 *    for this playwright-core version; PLAYWRIGHT_BROWSERS_PATH moves it);
 * 4. macOS: Google Chrome and Chromium in /Applications (or ~/Applications); Windows: Chrome in
 *    Program Files and the user's AppData.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const BROWSER_VARIABLE = 'RELAY_EMULATOR_BROWSER';

export interface BrowserSearch {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
  /** Where this playwright-core expects its own Chromium (installed or not). */
  playwrightChromium: string | null;
  exists(path: string): boolean;
}

export function systemSearch(): BrowserSearch {
  let playwrightChromium: string | null = null;
  try {
    playwrightChromium = (createRequire(import.meta.url)('playwright-core') as { chromium: { executablePath(): string } }).chromium.executablePath();
  } catch {
    // This playwright-core knows no Chromium for this platform.
  }
  return { env: process.env, platform: process.platform, home: homedir(), playwrightChromium, exists: existsSync };
}

/** Every place looked in, in order (the variable aside). */
export function browserCandidates(search: BrowserSearch): string[] {
  const linux = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];
  const mac = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium'].flatMap((app) => [
    join('/Applications', app),
    join(search.home, 'Applications', app),
  ]);
  const windowsRoots = [search.env.PROGRAMFILES, search.env['PROGRAMFILES(X86)'], search.env.LOCALAPPDATA].filter((root): root is string => Boolean(root));
  const windows = windowsRoots.map((root) => join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'));
  const system = search.platform === 'darwin' ? mac : search.platform === 'win32' ? windows : linux;
  const [first, ...rest] = search.platform === 'linux' ? [linux, search.playwrightChromium] : [search.playwrightChromium, system];
  return [...(Array.isArray(first) ? first : first ? [first] : []), ...rest.flatMap((entry) => (Array.isArray(entry) ? entry : entry ? [entry] : []))];
}

/** The browser to use, or null when there is none. Throws when the variable names a path that does not exist. */
export function findBrowser(search: BrowserSearch = systemSearch()): string | null {
  const named = search.env[BROWSER_VARIABLE];
  if (named) {
    if (!search.exists(named))
      throw new Error(
        `${BROWSER_VARIABLE} is ${named}, which does not exist: point it at a Chromium or Chrome executable, or unset it to let the tests look for one.`,
      );
    return named;
  }
  return browserCandidates(search).find((path) => search.exists(path)) ?? null;
}

/** What to run when no browser is found and none could be installed. */
export function noBrowserMessage(search: BrowserSearch, tried: string[]): string {
  const install =
    search.platform === 'linux'
      ? "`npx playwright-core install chromium` (downloads Playwright's Chromium), or `sudo apt-get install chromium` (Debian) / `sudo snap install " +
        'chromium` (Ubuntu)'
      : search.platform === 'darwin'
        ? '`npx playwright-core install chromium`, or install Google Chrome'
        : '`npx playwright-core install chromium`, or install Google Chrome';
  return [
    `The browser tests need Chromium or Chrome, and none was found${tried.length > 0 ? ` (installing one failed: ${tried.join('; ')})` : ''}.`,
    `Install one with ${install}, or set ${BROWSER_VARIABLE} to a Chromium or Chrome executable.`,
    `Looked in: ${browserCandidates(search).join(', ')}.`,
  ].join(' ');
}

/**
 * The browser, installed first when there is none: Playwright's Chromium where downloads work, then
 * apt as root on Debian (as .ci/run runs). One process at a time installs (a lock in the temp
 * directory); the other waits and looks again.
 */
export async function ensureBrowser(search: BrowserSearch = systemSearch()): Promise<string> {
  const found = findBrowser(search);
  if (found) return found;
  const lock = join(tmpdir(), 'relay-emulator-browser-install.lock');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`waited 10 minutes for another test process to install a browser (remove ${lock} if none is running)`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const meanwhile = findBrowser(search);
      if (meanwhile) return meanwhile;
    }
  }
  const tried: string[] = [];
  try {
    for (const [name, install] of installers(search)) {
      try {
        install();
      } catch (error) {
        const lines = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message)
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
        tried.push(`${name}: ${lines.find((line) => /error|fail|ENOTFOUND|EAI_AGAIN/i.test(line)) ?? lines[0] ?? 'failed'}`);
        continue;
      }
      const installed = findBrowser(search);
      if (installed) return installed;
      tried.push(`${name}: installed nothing where the tests look`);
    }
  } finally {
    rmdirSync(lock);
  }
  throw new Error(noBrowserMessage(search, tried));
}

function installers(search: BrowserSearch): [string, () => void][] {
  // The package's own bin (not in its exports map): next to its package.json.
  const cli = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');
  const list: [string, () => void][] = [
    ['playwright-core install chromium', () => execFileSync(process.execPath, [cli, 'install', 'chromium'], { stdio: 'pipe', timeout: 5 * 60_000 })],
  ];
  const root = process.getuid?.() === 0;
  if (search.platform === 'linux' && root && existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get')) {
    list.push([
      'apt-get install chromium',
      () => {
        execFileSync('apt-get', ['update', '-qq'], { stdio: 'pipe', timeout: 5 * 60_000 });
        execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
          stdio: 'pipe',
          timeout: 10 * 60_000,
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        });
      },
    ]);
  }
  return list;
}
