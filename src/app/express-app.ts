/**
 * The express app around the API's front door, one stage per line: the API (behind CORS and the
 * request log) → CORS → request log → docs pages → the Admin API → 404 → errors met on the way.
 * src/app/app.ts builds it when it is first needed: express and what it loads are most of the
 * modules a start would otherwise initialise, and the API does not pass through it.
 */
import express from 'express';
import type { ErrorRequestHandler, Express } from 'express';
import { ApiError } from '../http/errors.ts';
import type { ErrorContext } from '../http/render-error.ts';
import type { PlainResponse } from '../http/exchange.ts';
import type { DocumentSource } from '../openapi/document.ts';
import { loadAdminDocument } from './admin/admin-routes.ts';
import { docsRouter } from './docs/docs-routes.ts';
import type { Listener, Stage } from './node-handler.ts';
import { send } from './node-handler.ts';
import { isApiPath, urlOf } from './request-path.ts';

export interface ExpressParts {
  /** The API's front door: CORS, the request log and the dispatcher. */
  serveApi: Listener;
  allowOrigins: Stage;
  logged: Stage;
  document: DocumentSource;
  /** The Admin API, mounted at /__admin. */
  admin: Listener;
  /** The error answer of the API's dispatcher. */
  fail: (error: unknown, request: ErrorContext) => PlainResponse;
}

export function expressApp({ serveApi, allowOrigins, logged, document, admin, fail }: ExpressParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use((req, res, next) => (isApiPath(req.url ?? '/') ? serveApi(req, res) : next())); // the API, as the front door serves it
  app.use(allowOrigins);
  app.use(logged);
  app.use(docsRouter(document, loadAdminDocument)); // /docs, /openapi.json, /__admin/openapi.json
  app.use('/__admin', admin); // the Admin API (no token)
  app.use((req, res) => send(res, fail(new ApiError(404, `HTTP 404 Not Found: no handler for ${req.method} ${req.path}`), { method: req.method, url: req.originalUrl })));
  app.use(((error, req, res, next) => (res.headersSent ? next(error) : send(res, fail(error, { method: req.method, url: urlOf(req) })))) as ErrorRequestHandler);
  return app;
}
