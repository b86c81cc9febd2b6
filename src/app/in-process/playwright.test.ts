/**
 * A page in headless Chromium whose calls to http://localhost:8585/api — OpenMetadata's own URL,
 * where no server listens — are answered in process by `routeCatalog`: it lists the demo catalog's
 * tables, and a table it creates is in the next list (the catalog keeps state across requests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../../../test/chromium.ts';
import type { InProcessCatalog } from './catalog.ts';
import { createCatalog } from './catalog.ts';
import { routeCatalog } from './playwright.ts';

const PAGE = `<!doctype html><html><body><h1>Tables</h1><ul id="tables"></ul><script>
  async function list(token) {
    const answer = await fetch('http://localhost:8585/api/v1/tables?limit=100', { headers: { Authorization: 'Bearer ' + token } });
    const page = await answer.json();
    document.getElementById('tables').innerHTML = page.data.map((t) => '<li>' + t.fullyQualifiedName + '</li>').join('');
    return { status: answer.status, etag: answer.headers.get('ETag'), names: page.data.map((t) => t.name) };
  }
</script></body></html>`;

describe.skipIf(!CHROMIUM.available)(`Playwright's page.route answered in process (${CHROMIUM.available ? 'Chromium' : CHROMIUM.skipped})`, () => {
  let catalog: InProcessCatalog;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    catalog = await createCatalog();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    catalog?.close();
  });

  it('serves the page calls to localhost:8585/api from the catalog, statefully, with no server', async () => {
    const page = await browser.context.newPage();
    await routeCatalog(page, catalog);
    await page.setContent(PAGE);
    const token = await catalog.token();
    const first = await page.evaluate((t) => (window as unknown as { list(t: string): Promise<{ status: number; etag: string | null; names: string[] }> }).list(t), token);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^W\//);
    expect(first.names.length).toBeGreaterThan(0);
    expect(await page.locator('#tables li').count()).toBe(first.names.length);

    const schema = await page.evaluate(async (t) => {
      const answer = await fetch('http://localhost:8585/api/v1/databaseSchemas?limit=1', { headers: { Authorization: 'Bearer ' + t } });
      return ((await answer.json()) as { data: { fullyQualifiedName: string }[] }).data[0]!.fullyQualifiedName;
    }, token);
    const created = await page.evaluate(
      async ([t, s]) => {
        const answer = await fetch('http://localhost:8585/api/v1/tables', {
          method: 'POST',
          headers: { Authorization: 'Bearer ' + t, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'made_in_the_page', databaseSchema: s, columns: [{ name: 'id', dataType: 'INT' }] }),
        });
        return { status: answer.status, href: ((await answer.json()) as { href: string }).href, location: answer.headers.get('Location') };
      },
      [token, schema] as const,
    );
    expect(created.status).toBe(201);
    // The page's own URL in the answer, as a server at that address would give it.
    expect(created.href.startsWith('http://localhost:8585/api/v1/tables/')).toBe(true);
    expect(created.location).toBe(created.href);
    const second = await page.evaluate((t) => (window as unknown as { list(t: string): Promise<{ names: string[] }> }).list(t), token);
    expect(second.names).toContain('made_in_the_page');
    expect(second.names.length).toBe(first.names.length + 1);
  });
});
