/**
 * The API reference (issue 6 "Docs"): `/docs` renders the OpenAPI document with Swagger UI, whose
 * assets come from the swagger-ui-dist package (nothing is loaded from the internet), and the
 * document itself is served as `/openapi.json` and `/openapi.yaml`. The Admin API's document is
 * at `/__admin/openapi.json` and selectable in the page.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express from 'express';
import type { Router } from 'express';
import { stringify } from 'yaml';
import type { OpenApiDocument } from '../openapi/document.ts';

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>catalog-kit API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      urls: [
        { url: '/openapi.json', name: 'Metadata Catalog API' },
        { url: '/__admin/openapi.json', name: 'catalog-kit Admin API' }
      ],
      dom_id: '#swagger-ui',
      deepLinking: true,
      persistAuthorization: true,
      docExpansion: 'none',
      displayOperationId: true,
      filter: true,
      // No badge from validator.swagger.io: the page loads nothing from the internet.
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout'
    });
  </script>
</body>
</html>
`;

export function docsRouter(document: OpenApiDocument, adminDocument: Record<string, unknown>): Router {
  const router = express.Router();
  // The served document points "Try it out" at this server, whatever host and port it runs on.
  const withServer = (doc: Record<string, unknown>, host: string | undefined, suffix: string) => ({
    ...doc,
    servers: [{ url: `http://${host ?? '127.0.0.1:8585'}${suffix}`, description: 'this catalog-kit server' }],
  });
  router.get('/openapi.json', (req, res) => void res.json(withServer(document, req.get('host'), '/api')));
  router.get('/openapi.yaml', (req, res) => void res.type('application/yaml').send(stringify(withServer(document, req.get('host'), '/api'))));
  router.get('/__admin/openapi.json', (req, res) => void res.json(withServer(adminDocument, req.get('host'), '')));
  router.get(['/docs', '/docs/'], (_req, res) => void res.type('html').send(PAGE));
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, fallthrough: false }));
  return router;
}
