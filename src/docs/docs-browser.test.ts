/**
 * Issue 6 "Docs": a browser test in headless Chromium loads `/docs` from an in-process server and
 * finds the operations listed. Chromium comes from Debian's packages (`.ci/run` installs it);
 * playwright-core drives it and downloads no browser of its own. Where /usr/bin/chromium is
 * absent the test is skipped, saying why.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];
const available = existsSync(CHROMIUM);
const SKIPPED = `skipped: ${CHROMIUM} is absent (install Debian's chromium package, as .ci/run does)`;
if (!available) console.warn(`docs browser test ${SKIPPED}`);

describe.skipIf(!available)(`docs in headless Chromium (${available ? CHROMIUM : SKIPPED})`, () => {
  let server: Server;
  let base: string;
  let browser: BrowserContext;
  let profileDir: string;
  const outside: string[] = [];

  beforeAll(async () => {
    const { app } = await createApp();
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    profileDir = mkdtempSync(join(tmpdir(), 'ck-chromium-'));
    // A persistent context is how Playwright takes a --user-data-dir: a fresh one per run.
    browser = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 15_000 });
    // Anything not from this server is refused and noted: the page must work offline.
    await browser.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('data:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
  }, 20_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  it('lists the tags, and a tag opened by its link lists its operations with summaries and ids', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/docs#/Tables`);
    await page.locator('.opblock-summary-operation-id', { hasText: 'listTables' }).first().waitFor({ timeout: 10_000 });
    const tags = await page.locator('.opblock-tag').allInnerTexts();
    expect(tags.map((t) => t.split('\n')[0]!.trim())).toEqual(expect.arrayContaining(['Tables', 'Containers', 'Dashboards', 'Classifications']));
    const ids = await page.locator('.opblock-summary-operation-id').allInnerTexts();
    expect(ids).toEqual(expect.arrayContaining(['listTables', 'createTable', 'getTableByFqn']));
    const summaries = await page.locator('.opblock-summary-description').allInnerTexts();
    expect(summaries).toEqual(expect.arrayContaining(['List tables', 'Create a table', 'Get a table by fully qualified name']));
    expect(outside).toEqual([]);
  }, 20_000);
});
