/**
 * Headless Chromium for the browser tests: Debian's package (`.ci/run` installs it), driven by
 * playwright-core, which downloads no browser of its own. Where /usr/bin/chromium is absent the
 * tests that need it are skipped, saying why (`CHROMIUM.skipped`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';

const EXECUTABLE = '/usr/bin/chromium';
/** As the machine's own check starts it: without background networking, which the closed network refuses. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const CHROMIUM = {
  available: existsSync(EXECUTABLE),
  skipped: `skipped: ${EXECUTABLE} is absent (install Debian's chromium package, as .ci/run does)`,
};

/**
 * Whether the checks of pages in Chromium run: in `npm run test:browser` (CK_TEST_BROWSER=1, as CI
 * runs it) and with CK_TEST_ALL=1; `npm test` leaves them out (vitest.config.ts says which files).
 */
export const BROWSER_RUN = process.env.CK_TEST_BROWSER === '1' || process.env.CK_TEST_ALL === '1';

/** A fresh browser context (its own profile directory, removed by `close`). */
export async function launchChromium(viewport = { width: 1200, height: 900 }): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profileDir = mkdtempSync(join(tmpdir(), 'ck-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: EXECUTABLE, headless: true, args: FLAGS, timeout: 15_000, viewport });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
