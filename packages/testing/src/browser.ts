import { accessSync, constants } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/** Where a Chromium usually is when CHROMIUM_PATH does not say (Debian's apt package first). */
const COMMON_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export type ChromiumLookup = { found: true; path: string } | { found: false; reason: string };

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium the browser tests drive: CHROMIUM_PATH, else the first of the common paths. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  const configured = env['CHROMIUM_PATH'];
  if (configured) {
    return isExecutable(configured)
      ? { found: true, path: configured }
      : { found: false, reason: `CHROMIUM_PATH=${configured} is not an executable file` };
  }
  const path = COMMON_CHROMIUM_PATHS.find(isExecutable);
  return path
    ? { found: true, path }
    : {
        found: false,
        reason: `no Chromium at CHROMIUM_PATH or ${COMMON_CHROMIUM_PATHS.slice(0, 4).join(', ')} (apt-get install chromium)`,
      };
}

/** BROWSER_TESTS=required (as in .ci/run): a missing browser fails the suite instead of being reported. */
export function browserTestsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['BROWSER_TESTS'] === 'required';
}

/**
 * For a test file whose tests need a browser: with a Chromium, returns its path; without one,
 * prints one line saying the browser tests were not run and why, and registers one test that
 * fails when BROWSER_TESTS=required (and passes otherwise, having said so).
 */
export function chromiumForTests(suite: string): string | undefined {
  const lookup = findChromium();
  if (lookup.found) return lookup.path;
  const line = `${suite}: browser tests NOT run: ${lookup.reason}`;
  if (!browserTestsRequired()) process.stderr.write(`${line}\n`);
  it('has a Chromium to run the browser tests in (required when BROWSER_TESTS=required)', () => {
    if (browserTestsRequired()) throw new Error(`${line}; BROWSER_TESTS=required`);
  });
  return undefined;
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  // Loaded here, not at the top: the other test files importing @repo/testing need no browser.
  const { chromium } = await import('playwright-core');
  // The sandbox needs user namespaces, which containers (and root) often lack.
  return chromium.launch({ executablePath, chromiumSandbox: false, headless: true });
}

/** What a page did that a test refuses: errors in its console, and requests leaving the origin. */
export interface PageWatch {
  page: Page;
  /** Console errors and uncaught exceptions (a CSP violation is one). */
  readonly errors: string[];
  /** Every request the page tried to send outside `origin` (each was aborted). */
  readonly offOrigin: string[];
  /** Every request the page sent to `origin`. */
  readonly requests: string[];
}

/**
 * A new page in its own context where every request is intercepted: those to `origin` go
 * through, any other is recorded and aborted, so nothing leaves the service under test.
 */
export async function watchedPage(browser: Browser, origin: string): Promise<PageWatch> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // Fail a step within the test's time, naming what it waited for.
  page.setDefaultTimeout(8_000);
  const errors: string[] = [];
  const offOrigin: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`exception: ${error.message}`));
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    // data: URLs (Swagger UI's icons) are not requests.
    if (url.startsWith('data:')) return route.continue();
    if (new URL(url).origin === origin) {
      requests.push(`${route.request().method()} ${url}`);
      return route.continue();
    }
    offOrigin.push(url);
    return route.abort('blockedbyclient');
  });
  return { page, errors, offOrigin, requests };
}
