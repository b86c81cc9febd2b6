/**
 * The reference pages in headless Chromium, loaded from an in-process server: the document is
 * rendered (tags, an operation's summary and parameters), the filter and "Try it" work with the
 * Authorize token, the Admin API page is one click away, and no request leaves the machine.
 * Chromium comes from Debian's packages (`.ci/run` installs it); playwright-core drives it and
 * downloads no browser of its own. Where /usr/bin/chromium is absent the test is skipped, saying why.
 */
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../../../test/chromium.ts';
import type { TestApp } from '../../../test/kit.ts';
import { startApp } from '../../../test/kit.ts';

if (!CHROMIUM.available) console.warn(`docs browser test ${CHROMIUM.skipped}`);

describe.skipIf(!CHROMIUM.available)(`docs in headless Chromium (${CHROMIUM.available ? 'Chromium' : CHROMIUM.skipped})`, () => {
  let catalog: TestApp;
  let base: string;
  let browser: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;
  /** Every request the pages made, and those that were not to this server. */
  const requested: string[] = [];
  const outside: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    catalog = await startApp();
    base = `http://127.0.0.1:${(catalog.server.address() as AddressInfo).port}`;
    ({ context: browser, close: closeBrowser } = await launchChromium({ width: 1400, height: 1000 }));
    browser.on('request', (req) => {
      const url = req.url();
      requested.push(url);
      if (!url.startsWith(`${base}/`) && !url.startsWith('data:')) outside.push(url);
    });
    // And anything not for this server is refused, so a regression cannot reach the internet.
    await browser.route('**/*', (route) => (route.request().url().startsWith(`${base}/`) || route.request().url().startsWith('data:') ? route.continue() : route.abort()));
  }, 20_000);

  afterAll(async () => {
    await closeBrowser?.();
  });

  const open = async (path: string): Promise<Page> => {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}${path}`);
    return page;
  };

  it('renders the tags, and a deep link opens an operation with its summary, id and parameters', async () => {
    const page = await open('/docs#op-listTables');
    for (const tag of ['Tables', 'Containers', 'Dashboards', 'Classifications']) {
      await expect(page.locator('main section.tag > h2', { hasText: tag }).first().isVisible()).resolves.toBe(true);
    }
    const op = page.locator('#op-listTables');
    await expect(op.getAttribute('open')).resolves.toBe('');
    await expect(op.locator('summary .summary').first().innerText()).resolves.toBe('List tables');
    await expect(op.locator('.operation-id').innerText()).resolves.toBe('listTables');
    await expect(op.locator('table.params td.name code').allInnerTexts()).resolves.toEqual(expect.arrayContaining(['fields', 'limit', 'databaseSchema']));
    // Closed operations keep their body out of sight; the summary line still shows.
    await expect(page.locator('#op-createTable .op-body').isVisible()).resolves.toBe(false);
    await expect(page.locator('#op-createTable > summary').isVisible()).resolves.toBe(true);
    // A named schema's properties are copied in from the Schemas section when opened.
    await page.locator('#op-createTable > summary').click();
    await page.locator('#op-createTable details.expand > summary', { hasText: 'CreateTable properties' }).click();
    // The copy is made on the details' `toggle` event, which fires after the click returns.
    await page.locator('#op-createTable details.expand table.props td.name code').first().waitFor();
    await expect(page.locator('#op-createTable details.expand table.props td.name code').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['name', 'databaseSchema', 'columns']),
    );
    await page.close();
  });

  it('the filter keeps the matching operations only', async () => {
    const page = await open('/docs');
    await page.locator('#filter').fill('createtable');
    await expect(page.locator('#op-createTable').isVisible()).resolves.toBe(true);
    await expect(page.locator('#op-listTables').isVisible()).resolves.toBe(false);
    await expect(page.locator('main section.tag#tag-containers').isVisible()).resolves.toBe(false);
    await page.locator('#filter').fill('');
    await expect(page.locator('#op-listTables').isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('"Try it" calls this server: 401 without a token, 200 once a token is given in Authorize', async () => {
    const page = await open('/docs#op-listTables');
    const op = page.locator('#op-listTables');
    await op.locator('details.try > summary').click();
    await op.locator('input[name=limit]').fill('2');
    await op.locator('button[type=submit]').click();
    const status = op.locator('.result-status');
    await page.waitForFunction(() => document.querySelector('#op-listTables .result-status')?.hasAttribute('data-status'), undefined, { timeout: 10_000 });
    await expect(status.getAttribute('data-status')).resolves.toBe('401');

    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.locator('#token').fill(`Bearer ${catalog.tokens.admin}`);
    await page.locator('#auth-form button[type=submit]').click();
    await expect(page.locator('#authorize').innerText()).resolves.toBe('Authorized');
    await op.locator('button[type=submit]').click();
    await page.waitForFunction(() => document.querySelector('#op-listTables .result-status')?.getAttribute('data-status') === '200', undefined, { timeout: 10_000 });
    await expect(status.innerText()).resolves.toContain('GET /api/v1/tables?limit=2');
    const body = JSON.parse(await op.locator('.result-body').innerText()) as { data: unknown[]; paging: unknown };
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.data.length).toBeLessThanOrEqual(2);
    await page.close();
  });

  it('Authorize is a button a keyboard works: Enter opens the token form with the focus in it, Escape closes it and gives the focus back', async () => {
    const page = await open('/docs');
    const authorize = page.getByRole('button', { name: 'Authorize' });
    await expect(authorize.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.locator('#auth-form').isVisible()).resolves.toBe(false);
    await authorize.focus();
    await page.keyboard.press('Enter');
    await expect(authorize.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(page.locator('#auth-form').isVisible()).resolves.toBe(true);
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('token');
    await page.keyboard.press('Escape');
    await expect(page.locator('#auth-form').isVisible()).resolves.toBe(false);
    await expect(authorize.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('authorize');
    await page.keyboard.press(' ');
    await expect(page.locator('#auth-form').isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('the Admin API page is linked from the header and renders its document', async () => {
    const page = await open('/docs');
    await page.locator('header a', { hasText: 'Admin API' }).click();
    await page.waitForURL(`${base}/docs/admin`);
    const state = page.locator('details.op', { has: page.locator('code.path', { hasText: /^\/__admin\/state$/ }) }).first();
    await expect(state.locator('summary').first().innerText()).resolves.toContain('GET');
    await state.locator('summary').first().click();
    await state.locator('details.try > summary').click();
    await state.locator('button[type=submit]').click();
    await page.waitForFunction(() => [...document.querySelectorAll('.result-status')].some((s) => s.getAttribute('data-status') === '200'), undefined, { timeout: 10_000 });
    await page.close();
  });

  it('made requests to this server only, and raised no script error', () => {
    expect(requested.filter((url) => url.startsWith(`${base}/docs`)).length).toBeGreaterThanOrEqual(4);
    expect(requested).toContain(`${base}/api/v1/tables?limit=2`);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
