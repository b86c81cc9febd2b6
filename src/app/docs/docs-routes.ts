/**
 * The API reference: `/docs` renders the API document and `/docs/admin` the Admin API's, and the
 * documents themselves are served as `/openapi.json`, `/openapi.yaml` and `/__admin/openapi.json`;
 * `/` redirects to `/docs`.
 *
 * The page is rendered here, from the served document, by src/app/docs/reference-page.ts rather than
 * by a renderer package: every maintained one brings telemetry or install scripts into the tree
 * (swagger-ui-dist, rapidoc, @stoplight/elements and @scalar/api-reference telemetry; redoc 2's
 * core-js and openapi-explorer's core-js-pure postinstall), and the static page of
 * `redocly build-docs` (Redoc 3) embeds a telemetry client and loads its logo from a CDN.
 */
import express from 'express';
import type { Router } from 'express';
import type { DocumentSource } from '../../openapi/document.ts';
import { renderReferencePage } from './reference-page.ts';

const PAGES = [
  { href: '/docs', label: 'API reference' },
  { href: '/docs/admin', label: 'Admin API' },
];

/** `adminDocument` is read on first use: start-up does not pay for what only this page needs. */
export function docsRouter(document: DocumentSource, adminDocument: () => Record<string, unknown>): Router {
  const router = express.Router();
  // The served document points at this server, whatever host and port it runs on.
  const withServer = (doc: Record<string, unknown>, host: string | undefined, suffix: string) => ({
    ...doc,
    servers: [{ url: `http://${host ?? '127.0.0.1:8585'}${suffix}`, description: 'this catalog-kit server' }],
  });
  router.get('/openapi.json', (req, res) => void res.json(withServer(document(), req.get('host'), '/api')));
  router.get('/openapi.yaml', async (req, res) => {
    // The YAML library is loaded by the first request for YAML, not at start-up.
    const { stringify } = await import('yaml');
    res.type('application/yaml').send(stringify(withServer(document(), req.get('host'), '/api')));
  });
  router.get('/__admin/openapi.json', (req, res) => void res.json(withServer(adminDocument(), req.get('host'), '')));

  // Rendered on first request (≈ 1 MB of HTML for ~435 operations) and kept: the documents do not
  // change while the server runs. "Try it" uses relative URLs, so one page serves every host.
  const page = (doc: () => Record<string, unknown>, apiBase: string, current: string, downloads: string[]) => {
    let html: string | undefined;
    return (_req: express.Request, res: express.Response) => {
      html ??= renderReferencePage(doc(), {
        title: `${String((doc().info as { title?: unknown } | undefined)?.title ?? 'API')} reference`,
        apiBase,
        pages: PAGES.map((p) => ({ ...p, current: p.href === current })),
        downloads: downloads.map((href) => ({ href, label: href.slice(href.lastIndexOf('/') + 1) })),
      });
      res.type('html').set('Cache-Control', 'no-cache').send(html);
    };
  };
  // The server's root leads to the reference: the first thing a browser pointed at the server sees.
  router.get('/', (_req, res) => res.redirect(302, '/docs'));
  router.get(['/docs', '/docs/'], page(document, '/api', '/docs', ['/openapi.json', '/openapi.yaml']));
  router.get(['/docs/admin', '/docs/admin/'], page(adminDocument, '', '/docs/admin', ['/__admin/openapi.json']));
  return router;
}
