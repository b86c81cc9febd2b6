import { configDefaults, defineConfig } from 'vitest/config';

const TESTS = ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'openapi/**/*.test.ts', 'bench/**/*.test.ts', 'fixtures/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Test files that change module-level state other files read, so they run in a fresh worker of
 * their own: src/core/side-data.test.ts declares made-up side-data areas (the registry of
 * src/core/side-data.ts is module-level and every export lists every declared area).
 */
const ISOLATED = ['src/core/side-data.test.ts'];

/**
 * Proofs too slow for `npm test`'s 90 s, which CI (.ci/run) runs on their own: the package packed
 * and installed into an empty project (`npm run test:package`) and every operation through the
 * validation oracle (`npm run test:differential`). CK_TEST_ALL=1 brings them back into a run.
 */
const CI_ONLY = process.env.CK_TEST_ALL === '1' ? [] : ['src/package.test.ts', 'src/http/validation-differential.test.ts'];

/**
 * The pages in headless Chromium (test/chromium.ts): /docs, the catalog under MSW's service worker,
 * Playwright's page.route. `npm run test:browser` runs them (CI does, after `npm test`);
 * CK_TEST_BROWSER=1 or CK_TEST_ALL=1 brings them into a run (test/chromium.ts `BROWSER_RUN`, which
 * also keeps the HTML reports' page checks in test/self-test/reports.test.ts to those runs).
 */
const BROWSER = ['src/app/docs/docs-browser.test.ts', 'src/app/in-process/browser.test.ts', 'src/app/in-process/playwright.test.ts'];
const BROWSER_SKIPPED = process.env.CK_TEST_ALL === '1' || process.env.CK_TEST_BROWSER === '1' ? [] : BROWSER;

export default defineConfig({
  test: {
    // Both cores of the 2-core CI machine (vitest's default leaves one idle in a run).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        // Every other file shares its worker's modules with the files that ran there before: the
        // app, the compiled validators and the OpenAPI document are imported once per worker,
        // not once per file (a third of `npm test`'s time when each file imported them afresh).
        // All state a test makes lives in the store of the app it started (src/app/app.ts).
        extends: true,
        test: { name: 'shared', isolate: false, include: TESTS, exclude: [...configDefaults.exclude, ...ISOLATED, ...CI_ONLY, ...BROWSER_SKIPPED] },
      },
      { extends: true, test: { name: 'isolated', isolate: true, include: ISOLATED } },
    ],
  },
});
