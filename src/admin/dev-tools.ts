/**
 * What makes the mock pleasant for UI developers, set up once per app: the start-up state (a data
 * file, else fixtures) with its reset and its persistence, the request journal, and the latency and
 * error injection settings. The pipeline stages that use them are exported as factories and named
 * in order by the app factory (src/app.ts): the docs pages, the Admin API, the injected latency and
 * errors. All of it is off or neutral by default, so `createApp()` in tests stays a bare, empty,
 * silent server.
 */
import type { RequestHandler, Router } from 'express';
import type { CatalogContext } from '../domain/context.ts';
import { docsRouter } from '../docs/docs-routes.ts';
import { loadFixtures, resolveFixturesDir } from '../fixtures/load-fixtures.ts';
import { isUnder, under } from '../http/compose.ts';
import type { LogFormat } from '../http/request-log.ts';
import type { DocumentSource } from '../openapi/document.ts';
import type { Persister } from '../persistence/data-file.ts';
import { createPersister, loadDataFile } from '../persistence/data-file.ts';
import { adminRouter, loadAdminDocument } from './admin-routes.ts';
import { FaultSettings, injectFaults } from './injection.ts';
import { Journal } from './journal.ts';
import { clearState, exportState, importState } from './state.ts';

export interface DevToolsOptions {
  /** `default` (the demo catalog), `none`, or a directory of fixtures. Default `none`. */
  fixtures?: string;
  /** Allowed CORS origins (default: any). */
  corsOrigins?: readonly string[];
  /** Request log format (default `quiet`). */
  requestLog?: LogFormat;
  /** Keep the state in this file across restarts. */
  dataFile?: string;
  /** Random source of latency ranges and error probabilities (tests fix it). */
  random?: () => number;
}

export interface DevTools {
  /** Latency and error rules (`/__admin/latency`, `/__admin/errors`). */
  faults: FaultSettings;
  /** The last API requests (`/__admin/journal`). */
  journal: Journal;
  /** With `--data`: journals every change to the data file. */
  persister: Persister | undefined;
  /** `POST /__admin/reset`: back to the start state (`start`) or to the fixtures. */
  reset(to: 'start' | 'fixtures'): void;
}

/** Loads the start-up state into the context (the data file's, else the fixtures') and sets up what the stages share. */
export function setupDevTools(ctx: CatalogContext, options: DevToolsOptions, log: (line: string) => void): DevTools {
  const fixturesDir = resolveFixturesDir(options.fixtures);
  const loadStartFixtures = () => {
    clearState(ctx);
    if (fixturesDir) loadFixtures(ctx, fixturesDir);
  };
  const loaded = options.dataFile ? loadDataFile(ctx, options.dataFile) : false;
  if (!loaded) loadStartFixtures();
  // With --data, reset goes back to the state the server started from (the file's, else the
  // fixtures'), not to the fixtures over the user's data: a copy of it is kept.
  const startState = options.dataFile ? exportState(ctx) : undefined;
  return {
    faults: new FaultSettings(options.random),
    journal: new Journal(),
    persister: options.dataFile ? createPersister(ctx, options.dataFile, loaded, { log }) : undefined,
    reset: (to) => (startState && to === 'start' ? void importState(ctx, startState) : loadStartFixtures()),
  };
}

/** The API reference (`/docs`) and the documents (`/openapi.json`, `/__admin/openapi.json`). API requests skip it. */
export function docsPages(document: DocumentSource): RequestHandler {
  const docs = docsRouter(document, loadAdminDocument);
  return (req, res, next) => (isUnder(req.path, '/api') ? next() : docs(req, res, next));
}

/**
 * The Admin API under `/__admin` (openapi/admin.yaml). Built on its first request, and passed by
 * every other request: its validator costs ≈ 0.2 s to build and a few promise hops per request it
 * is handed (docs/performance.md).
 */
export function adminApi(ctx: CatalogContext, dev: DevTools): RequestHandler {
  let admin: Router | undefined;
  return (req, res, next) => {
    if (!isUnder(req.path, '/__admin')) return next();
    admin ??= adminRouter({ ctx, faults: dev.faults, journal: dev.journal, reset: dev.reset, changed: () => dev.persister?.schedule() });
    admin(req, res, next);
  };
}

/** The latency and errors the Admin API's rules inject into `/api` requests. */
export function injectedFaults(dev: DevTools): RequestHandler {
  return under('/api', injectFaults(dev.faults));
}
