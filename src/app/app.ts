/**
 * The express app factory. `createApp` builds the catalog (src/app/api.ts: its context, start
 * state, routes and transport-neutral dispatcher), then the express app around it, one stage per
 * line: the API (behind CORS and the request log) → CORS → request log → docs pages → the Admin API →
 * 404 → errors met on the way.
 * Request AND response validation are on by default, so the server cannot drift from the document
 * without failing loudly; the validators were compiled from the document at build time
 * (src/openapi/compiled.ts).
 */
import bytes from 'bytes';
import express from 'express';
import type { ErrorRequestHandler, Express } from 'express';
import type { CatalogContext } from '../core/context.ts';
import type { WebhookSender } from '../features/events/webhooks.ts';
import type { Dispatcher } from '../http/dispatcher.ts';
import { createDispatcher } from '../http/dispatcher.ts';
import { ApiError } from '../http/errors.ts';
import type { OperationEntry } from '../openapi/compiled.ts';
import { compiledValidators } from '../openapi/compiled.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { adminRoutes, loadAdminDocument } from './admin/admin-routes.ts';
import type { DevTools, DevToolsOptions } from './admin/dev-tools.ts';
import { setupDevTools } from './admin/dev-tools.ts';
import { injectFaults } from './admin/injection.ts';
import type { ApiOptions } from './api.ts';
import { createApi, createCatalogOf } from './api.ts';
import { cors } from './cors.ts';
import { docsRouter } from './docs/docs-routes.ts';
import type { Listener } from './node-handler.ts';
import { handlerOf, send } from './node-handler.ts';
import type { Persister } from './persistence/data-file.ts';
import { requestLog } from './request-log.ts';
import { isApiPath, urlOf } from './request-path.ts';

export interface AppOptions extends DevToolsOptions, ApiOptions {
  /** Largest accepted request body (express body-parser syntax). */
  bodyLimit?: string;
}

export interface CatalogApp {
  /** The whole server as an express app: the API, /docs, the Admin API (for your own server or supertest). */
  app: Express;
  /** The same as a node:http request listener (what `startServer` listens with). */
  listener: Listener;
  ctx: CatalogContext;
  document: OpenApiDocument;
  /** What the Admin API and the data file share: injection settings, journal, persistence, reset. */
  dev: DevTools;
  /** The webhook sender: delivers change events in the background (stop it when done). */
  webhooks: WebhookSender;
  /** The API's dispatcher: a plain request in, a plain response out, no port (src/http/dispatcher.ts). */
  dispatch: Dispatcher;
  /** Operations of the document that no route serves (a test keeps this empty). */
  unroutedOperations(): OperationEntry[];
}

const DEFAULT_BODY_LIMIT = '1mb';

export async function createApp(options: AppOptions = {}): Promise<CatalogApp> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const catalog = createCatalogOf(compiledValidators(), { ...options, log, documentBytes: bytes.parse(bodyLimit) ?? undefined });
  const { ctx, document } = catalog;
  const dev = setupDevTools(ctx, options, log);
  const durable = dev.persister ? durability(dev.persister) : undefined;
  // Latency and errors injected by the Admin API's rules, before the token is looked at.
  const api = createApi(catalog, { ...options, log, intercept: injectFaults(dev.faults), durable });
  const admin = createDispatcher({
    routes: adminRoutes({ ctx, faults: dev.faults, journal: dev.journal, reset: dev.reset, changed: () => dev.persister?.schedule() }),
    renderError: catalog.renderError,
    durable,
  });

  const allowOrigins = cors(options.corsOrigins ? { origins: options.corsOrigins } : {});
  const logged = requestLog(options.requestLog ?? 'quiet', log, dev.journal);
  const dispatchApi = handlerOf(api.dispatch, bodyLimit);
  // CORS (preflights answered before any token is asked for), the request log and its journal, the API.
  const serveApi: Listener = (req, res) => logged(req, res, () => allowOrigins(req, res, () => dispatchApi(req, res)));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use((req, res, next) => (isApiPath(req.url ?? '/') ? serveApi(req, res) : next())); // the API, as the front door serves it
  app.use(allowOrigins);
  app.use(logged);
  app.use(docsRouter(document, loadAdminDocument)); // /docs, /openapi.json, /__admin/openapi.json
  app.use('/__admin', handlerOf(admin, bodyLimit)); // the Admin API (no token)
  app.use((req, res) =>
    send(res, api.dispatch.fail(new ApiError(404, `HTTP 404 Not Found: no handler for ${req.method} ${req.path}`), { method: req.method, url: req.originalUrl })),
  );
  app.use(((error, req, res, next) => (res.headersSent ? next(error) : send(res, api.dispatch.fail(error, { method: req.method, url: urlOf(req) })))) as ErrorRequestHandler);
  return {
    app,
    // An API request skips express's entry, which costs more than the API's own work (npm run bench "GET by id").
    listener: (req, res) => (isApiPath(req.url ?? '/') ? serveApi(req, res) : app(req, res)),
    ctx,
    get document() {
      return document();
    },
    dev,
    webhooks: api.webhooks,
    dispatch: api.dispatch,
    unroutedOperations: () => api.routes.unrouted(),
  };
}

/** Resolves once the changes made so far are in the data file (src/app/persistence/data-file.ts). */
function durability(persister: Persister): () => Promise<void> {
  return () => new Promise<void>((resolve, reject) => persister.whenDurable((error) => (error ? reject(error) : resolve())));
}
