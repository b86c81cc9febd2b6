/**
 * The catalog in process in a browser: a page bundled for the browser (test/browser/catalog-page.ts
 * with the built catalog-kit/fetch for browsers, dist/browser/catalog.js, and msw/browser) runs the
 * catalog under MSW's service worker in headless Chromium; its calls to http://localhost:8585/api,
 * where nothing listens, are answered by the catalog in the page. It renders the list of tables,
 * which the test sees in a screenshot; a table it creates is in the next list, and the same create
 * again is a 409. Nothing the page asks for leaves the machine.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../../../test/chromium.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BROWSER_BUILD = path.join(ROOT, 'dist/browser/catalog.js');
const HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Tables</title></head><body style="background:#fff;font:16px sans-serif"><h1>Tables</h1><ul id="tables"></ul><script type="module" src="/page.js"></script></body></html>';

/** The page's code: the page entry bundled for the browser, with the built catalog in place of its source. */
async function pageBundle(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['test/browser/catalog-page.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'built-catalog',
        setup(b) {
          b.onResolve({ filter: /in-process\/catalog\.ts$/ }, () => ({ path: BROWSER_BUILD }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

describe.skipIf(!CHROMIUM.available)(`the catalog in a browser, under MSW's service worker (${CHROMIUM.available ? 'Chromium' : CHROMIUM.skipped})`, () => {
  let server: Server;
  let origin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    expect(existsSync(BROWSER_BUILD), 'dist/browser/catalog.js is missing: run `npm run build`').toBe(true);
    const files: Record<string, [string, string]> = {
      '/': ['text/html; charset=utf-8', HTML],
      '/page.js': ['text/javascript; charset=utf-8', await pageBundle()],
      '/mockServiceWorker.js': ['text/javascript; charset=utf-8', readFileSync(path.join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), 'utf8')],
    };
    server = createServer((req, res) => {
      const file = files[req.url ?? ''];
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' }).end(file[1]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium({ width: 900, height: 1400 });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('answers the page from the catalog in the page: a list, a create, a 409, the list again, rendered', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    const reachedNetwork: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Chromium logs every answer of 4xx as an error: the 409 the page asks for is the one expected.
    page.on('console', (message) => message.type() === 'error' && !/status of 409/.test(message.text()) && errors.push(message.text()));
    // What the service worker does not answer goes to the network: nothing may, but the page's own files.
    await browser.context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`)) return route.continue();
      reachedNetwork.push(url);
      return route.abort();
    });
    await page.goto(`${origin}/`);
    const result = await page
      .waitForFunction(() => (window as unknown as { result?: unknown }).result, undefined, { timeout: 20_000 })
      .then((h) => h.jsonValue() as Promise<Record<string, unknown>>);
    expect(result.error).toBeUndefined();
    expect(result.before).toBeGreaterThan(0);
    expect(result.created).toBe(201);
    expect(result.twice).toEqual([409, 'ENTITY_ALREADY_EXISTS']);
    expect(result.after).toContain('made_in_the_browser');
    expect((result.after as string[]).length).toBe((result.before as number) + 1);
    expect(result.href).toMatch(/^http:\/\/localhost:8585\/api\/v1\/tables\//);
    expect(result.etag).toMatch(/^W\//);
    expect(reachedNetwork).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.locator('#tables li').count()).toBe((result.after as string[]).length);

    // The screenshot shows the list: its pixels, read back in the page, are text on the white background.
    const png = await page.locator('#tables').screenshot();
    const dark = await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [image.width, image.height];
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data: pixels } = context.getImageData(0, 0, image.width, image.height);
      let count = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! + pixels[i + 1]! + pixels[i + 2]! < 300) count++;
      return { count, width: image.width, height: image.height };
    }, png.toString('base64'));
    expect(dark.height).toBeGreaterThan(100);
    expect(dark.count).toBeGreaterThan(1000);
  });
});
