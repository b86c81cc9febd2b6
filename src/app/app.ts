/**
 * The express app factory. `createApp` builds the catalog (src/app/api.ts: its context, start
 * state, routes and transport-neutral dispatcher), then the express app around it, one stage per
 * line: CORS → request log → docs pages → the Admin API → the API → 404 → errors met on the way.
 * Request AND response validation are on by default, so the server cannot drift from the document
 * without failing loudly; the validators were compiled from the document at build time
 * (src/openapi/compiled.ts).
 */
import bytes from 'bytes';
import express from 'express';
import type { Express } from 'express';
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
import { dispatchTo, renderErrors, send } from './express-adapter.ts';
import type { Persister } from './persistence/data-file.ts';
import { requestLog } from './request-log.ts';

export interface AppOptions extends DevToolsOptions, ApiOptions {
  /** Largest accepted request body (express body-parser syntax). */
  bodyLimit?: string;
}

export interface CatalogApp {
  app: Express;
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

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(cors(options.corsOrigins ? { origins: options.corsOrigins } : {})); // CORS: preflights answered before any token is asked for
  app.use(requestLog(options.requestLog ?? 'quiet', log, dev.journal)); // request log, and the Admin API's journal
  app.use(docsRouter(document, loadAdminDocument)); // /docs, /openapi.json, /__admin/openapi.json
  app.use('/__admin', dispatchTo(admin, bodyLimit)); // the Admin API (no token)
  app.use('/api', dispatchTo(api.dispatch, bodyLimit)); // the API
  app.use((req, res) =>
    send(res, api.dispatch.fail(new ApiError(404, `HTTP 404 Not Found: no handler for ${req.method} ${req.path}`), { method: req.method, url: req.originalUrl })),
  );
  app.use(renderErrors(api.dispatch)); // a body too large or cut short, in the error shape
  return {
    app,
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
