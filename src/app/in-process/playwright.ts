/**
 * `catalog-kit/playwright`: a Playwright page's calls to the API answered by an in-process catalog
 * through `page.route`, with no server. The UI keeps the URL it is configured with
 * (`http://localhost:8585/api` by default here, OpenMetadata's own): the catalog answers any
 * origin, and its `href`s name the one the page called. Typed structurally, so it needs no
 * Playwright types of its own: `page` is Playwright's `Page` (or a `BrowserContext`). A page on
 * another origin gets the CORS answers `catalog-kit serve` gives (src/app/cors.ts).
 */
import { ALLOWED_HEADERS, ALLOWED_METHODS, EXPOSED_HEADERS } from '../cors.ts';
import type { InProcessCatalog } from './catalog.ts';

/** What is used of a Playwright `Route` and its `Request`. */
export interface RouteLike {
  request(): { url(): string; method(): string; headers(): Record<string, string>; postDataBuffer(): Buffer | null };
  fulfill(response: { status: number; headers: Record<string, string>; body: Buffer | string }): Promise<void>;
}

/** What is used of a Playwright `Page` or `BrowserContext`. */
export interface RoutableLike {
  route(url: string | RegExp, handler: (route: RouteLike) => Promise<void>): Promise<unknown>;
}

export interface RouteOptions {
  /** The API's base URL as the page calls it; default `http://localhost:8585/api`. */
  baseUrl?: string;
}

/** Routes every request of `page` under `options.baseUrl` to `catalog`; resolves once the route is in place. */
export async function routeCatalog(page: RoutableLike, catalog: Pick<InProcessCatalog, 'fetch'>, options: RouteOptions = {}): Promise<void> {
  const base = (options.baseUrl ?? 'http://localhost:8585/api').replace(/\/+$/, '');
  const under = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[/?#]|$)`);
  await page.route(under, async (route) => {
    const request = route.request();
    const body = request.postDataBuffer();
    const headers = request.headers();
    // A cross-origin page's preflight, and the headers its answers need, as the server's CORS gives them.
    const cors: Record<string, string> = headers.origin ? { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS.join(',') } : {};
    if (request.method() === 'OPTIONS' && headers['access-control-request-method']) {
      const preflight = {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': ALLOWED_METHODS.join(','),
        'access-control-allow-headers': ALLOWED_HEADERS.join(','),
        'access-control-max-age': '600',
      };
      return route.fulfill({ status: 204, headers: preflight, body: '' });
    }
    const answer = await catalog.fetch(request.url(), {
      method: request.method(),
      headers,
      ...(body && body.length > 0 ? { body: body as BodyInit } : {}),
    });
    const answerHeaders: Record<string, string> = { ...cors };
    answer.headers.forEach((value, name) => (answerHeaders[name] = value));
    await route.fulfill({ status: answer.status, headers: answerHeaders, body: Buffer.from(await answer.arrayBuffer()) });
  });
}
