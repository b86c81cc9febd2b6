/**
 * A page of a UI built on the catalog in process: MSW's service worker answers its calls to
 * http://localhost:8585/api from a catalog running in the page (the browser build of
 * catalog-kit/fetch); it lists the tables, creates one, and lists them again. What it saw is left
 * in `window.result` for the test (src/app/in-process/browser.test.ts).
 */
import { setupWorker } from 'msw/browser';
// The test bundles this page with the built catalog-kit/fetch for browsers (dist/browser/catalog.js) in place of the source.
import { createCatalog } from '../../src/app/in-process/catalog.ts';
import { catalogHandler } from '../../src/app/in-process/msw.ts';

const API = 'http://localhost:8585/api';

interface Page {
  data: { name: string; fullyQualifiedName: string; href: string }[];
}

async function main(): Promise<Record<string, unknown>> {
  const catalog = await createCatalog({ baseUrl: API });
  const worker = setupWorker(catalogHandler(catalog));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  const headers = { Authorization: `Bearer ${await catalog.token()}`, 'Content-Type': 'application/json' };
  const list = async (): Promise<Page> => (await fetch(`${API}/v1/tables?limit=100`, { headers })).json() as Promise<Page>;
  const before = await list();
  const schemas = (await (await fetch(`${API}/v1/databaseSchemas?limit=1`, { headers })).json()) as Page;
  const created = await fetch(`${API}/v1/tables`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'made_in_the_browser', databaseSchema: schemas.data[0]!.fullyQualifiedName, columns: [{ name: 'id', dataType: 'INT' }] }),
  });
  const twice = await fetch(`${API}/v1/tables`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'made_in_the_browser', databaseSchema: schemas.data[0]!.fullyQualifiedName, columns: [{ name: 'id', dataType: 'INT' }] }),
  });
  const after = await list();
  const ul = document.getElementById('tables')!;
  for (const table of after.data) {
    const li = document.createElement('li');
    li.textContent = table.fullyQualifiedName;
    ul.append(li);
  }
  return {
    before: before.data.length,
    after: after.data.map((t) => t.name),
    created: created.status,
    twice: [twice.status, ((await twice.json()) as { errorType?: string }).errorType],
    href: after.data[0]!.href,
    etag: created.headers.get('ETag'),
  };
}

const w = window as unknown as { result?: Record<string, unknown> };
main().then(
  (result) => (w.result = result),
  (error: unknown) => (w.result = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
);
