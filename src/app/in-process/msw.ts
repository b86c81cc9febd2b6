/**
 * `catalog-kit/msw`: the in-process catalog as ONE Mock Service Worker handler for everything
 * under its base URL, for `setupServer` (msw/node: Vitest, Jest) and `setupWorker` (the browser:
 * Storybook's MSW addon, a dev server). One handler, not one per operation: the catalog's own
 * dispatcher routes the request (MSW tries its handlers in turn). `msw` ≥ 2 is an optional peer
 * dependency: only this entry point needs it.
 */
import { http } from 'msw';
import type { HttpHandler } from 'msw';
import type { InProcessCatalog } from './catalog.ts';

/** Answers every request under `catalog.baseUrl` from the catalog. */
export function catalogHandler(catalog: Pick<InProcessCatalog, 'baseUrl' | 'fetch'>): HttpHandler {
  return http.all(`${catalog.baseUrl}/*`, ({ request }) => catalog.fetch(request));
}
