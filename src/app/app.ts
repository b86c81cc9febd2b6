/**
 * The server without a port. `createHandler` builds the catalog (src/app/api.ts: its context, start
 * state, routes and transport-neutral dispatcher) and the node:http listener in front of it: a
 * request under /api goes straight to the API (behind CORS and the request log), anything else
 * to the express app around it (src/app/express-app.ts: docs pages, the Admin API, 404), built by
 * the first request that needs it. `createApp` is the same with the express app built at once.
 * Request AND response validation are on by default, so the server cannot drift from the document
 * without failing loudly; the validators were compiled from the document at build time
 * (src/openapi/compiled.ts).
 */
import bytes from 'bytes';
import type { Express } from 'express';
import type { CatalogContext } from '../core/context.ts';
import type { WebhookSender } from '../features/events/webhooks.ts';
import type { Dispatcher } from '../http/dispatcher.ts';
import { createDispatcher } from '../http/dispatcher.ts';
import type { OperationEntry } from '../openapi/compiled.ts';
import { compiledValidators } from '../openapi/compiled.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import type { DevTools, DevToolsOptions } from './admin/dev-tools.ts';
import { setupDevTools } from './admin/dev-tools.ts';
import { injectFaults } from './admin/injection.ts';
import type { ApiOptions } from './api.ts';
import { createApi, createCatalogOf } from './api.ts';
import { cors } from './cors.ts';
import type { Listener } from './node-handler.ts';
import { handlerOf, send } from './node-handler.ts';
import type { Persister } from './persistence/data-file.ts';
import { requestLog } from './request-log.ts';
import { isApiPath, urlOf } from './request-path.ts';

export interface AppOptions extends DevToolsOptions, ApiOptions {
  /** Largest accepted request body (express body-parser syntax). */
  bodyLimit?: string;
}

/** The server without a port, and without its express app until a request outside /api needs it. */
export interface CatalogHandler {
  /** The whole server as a node:http request listener (what `startServer` listens with). */
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
  /** The express app the listener hands requests outside /api to, built on first use. */
  expressApp(): Promise<Express>;
}

export interface CatalogApp extends CatalogHandler {
  /** The whole server as an express app: the API, /docs, the Admin API (for your own server or supertest). */
  app: Express;
}

const DEFAULT_BODY_LIMIT = '1mb';

export async function createHandler(options: AppOptions = {}): Promise<CatalogHandler> {
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
  const fail = api.dispatch.fail;
  // Imported when first needed: express and the modules it loads are a large part of a start (bench: cold start).
  let app: Promise<Express> | undefined;
  const expressApp = () =>
    (app ??= import('./express-app.ts').then(({ expressApp }) => expressApp({ serveApi, allowOrigins, logged, document, admin: handlerOf(admin, bodyLimit), fail })));
  return {
    // An API request skips express's entry, which costs more than the API's own work (npm run bench "GET by id").
    listener: (req, res) => {
      if (isApiPath(req.url ?? '/')) return serveApi(req, res);
      expressApp().then(
        (handle) => handle(req, res),
        (error: unknown) => send(res, fail(error, { method: req.method ?? 'GET', url: urlOf(req) })),
      );
    },
    ctx,
    get document() {
      return document();
    },
    dev,
    webhooks: api.webhooks,
    dispatch: api.dispatch,
    unroutedOperations: () => api.routes.unrouted(),
    expressApp,
  };
}

/** The server without a port, its express app built: for your own server or supertest. */
export async function createApp(options: AppOptions = {}): Promise<CatalogApp> {
  const handler = await createHandler(options);
  const app = await handler.expressApp();
  // The handler's properties as they are, its `document` getter included (a spread would read it).
  return Object.defineProperties({ app }, Object.getOwnPropertyDescriptors(handler)) as CatalogApp;
}

/** Resolves once the changes made so far are in the data file (src/app/persistence/data-file.ts). */
function durability(persister: Persister): () => Promise<void> {
  return () => new Promise<void>((resolve, reject) => persister.whenDurable((error) => (error ? reject(error) : resolve())));
}
