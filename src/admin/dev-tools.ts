/**
 * Everything that makes the mock pleasant for UI developers (issue 6), gathered so that the app
 * factory mounts it with three lines: CORS, request logs and the journal, the docs page, the
 * Admin API, latency/error injection, `Prefer: code=`, the start-up state (data file, else
 * fixtures) and its persistence. All of it is off or neutral by default, so `createApp()` in
 * tests stays a bare, empty, silent server.
 */
import type { RequestHandler, Router } from 'express';
import type { CatalogContext } from '../domain/context.ts';
import { docsRouter } from '../docs/docs-routes.ts';
import { loadFixtures, resolveFixturesDir } from '../fixtures/load-fixtures.ts';
import type { CorsOptions } from '../http/cors.ts';
import { isUnder, under } from '../http/compose.ts';
import { cors } from '../http/cors.ts';
import type { LogFormat } from '../http/request-log.ts';
import { requestLog } from '../http/request-log.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import type { Persister } from '../persistence/data-file.ts';
import { createPersister, loadDataFile } from '../persistence/data-file.ts';
import { durableWrites } from '../persistence/durable-writes.ts';
import { adminRouter, loadAdminDocument } from './admin-routes.ts';
import { FaultSettings, injectFaults } from './injection.ts';
import { Journal } from './journal.ts';
import { preferCode } from './prefer-code.ts';
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
  faults: FaultSettings;
  journal: Journal;
  persister: Persister | undefined;
  /** Before the body parser: CORS, request log, docs and documents. */
  beforeBody: RequestHandler[];
  /** After the body parser, before authentication: Admin API, injected latency and errors. */
  afterBody: RequestHandler[];
  /** After request validation, before authorisation: `Prefer: code=<status>`. */
  afterValidation: RequestHandler;
}

export function setupDevTools(ctx: CatalogContext, document: OpenApiDocument, options: DevToolsOptions, log: (line: string) => void): DevTools {
  const fixturesDir = resolveFixturesDir(options.fixtures);
  const reset = () => {
    clearState(ctx);
    if (fixturesDir) loadFixtures(ctx, fixturesDir);
  };
  const loaded = options.dataFile ? loadDataFile(ctx, options.dataFile) : false;
  if (!loaded) reset();
  // With --data, reset goes back to the state the server started from (the file's, else the
  // fixtures'), not to the fixtures over the user's data: a copy of it is kept.
  const startState = options.dataFile ? exportState(ctx) : undefined;
  const resetTo = (to: 'start' | 'fixtures') => (startState && to === 'start' ? void importState(ctx, startState) : reset());
  const persister = options.dataFile ? createPersister(ctx, options.dataFile, loaded, { log }) : undefined;

  const faults = new FaultSettings(options.random);
  const journal = new Journal();

  const beforeBody: RequestHandler[] = [];
  beforeBody.push(cors(options.corsOrigins ? { origins: options.corsOrigins } : {}));
  beforeBody.push(requestLog(options.requestLog ?? 'quiet', log, journal));
  if (persister) beforeBody.push(durableWrites(persister));
  // None of the docs routes is under /api: API requests skip their router (issue 7 hot path).
  const docs = docsRouter(document, loadAdminDocument);
  beforeBody.push((req, res, next) => (isUnder(req.path, '/api') ? next() : docs(req, res, next)));

  const afterBody: RequestHandler[] = [];
  // Built on the first Admin API request, and passed by every other request: its validator costs
  // ≈ 0.2 s to build and a few promise hops per request it is handed (issue 7, docs/performance.md).
  let admin: Router | undefined;
  afterBody.push((req, res, next) => {
    if (!isUnder(req.path, '/__admin')) return next();
    admin ??= adminRouter({ ctx, faults, journal, reset: resetTo, changed: () => persister?.schedule() });
    admin(req, res, next);
  });
  afterBody.push(under('/api', injectFaults(faults)));
  return { faults, journal, persister, beforeBody, afterBody, afterValidation: preferCode() };
}
