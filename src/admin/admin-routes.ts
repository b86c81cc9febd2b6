/**
 * The Admin API under `/__admin` (issue 6; documented in openapi/admin.yaml and docs/admin.md).
 * Its own small OpenAPI document validates its requests and responses, as the main one does for
 * `/api`. No authentication: it is a local development tool, bound to 127.0.0.1 like the server.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express from 'express';
import type { Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { parse } from 'yaml';
import type { CatalogContext } from '../domain/context.ts';
import type { FaultSettings, ErrorRule, LatencyRule } from './injection.ts';
import type { Journal } from './journal.ts';
import { exportState, importState } from './state.ts';

export const ADMIN_DOCUMENT_PATH = fileURLToPath(new URL('../../openapi/admin.yaml', import.meta.url));

export function loadAdminDocument(): Record<string, unknown> {
  return parse(readFileSync(ADMIN_DOCUMENT_PATH, 'utf8')) as Record<string, unknown>;
}

export interface AdminDeps {
  ctx: CatalogContext;
  faults: FaultSettings;
  journal: Journal;
  /** Clears the state and loads the start-up fixtures again. */
  reset(): void;
  /** Called after every change of the state (persistence). */
  changed(): void;
}

export function adminRouter(deps: AdminDeps): Router {
  const { ctx, faults, journal } = deps;
  const router = express.Router();
  router.use(
    OpenApiValidator.middleware({
      apiSpec: loadAdminDocument() as never,
      validateRequests: { coerceTypes: true },
      validateResponses: true,
      ignorePaths: /^(?!\/__admin\/)/,
    }),
  );
  const count = () => [...ctx.store.all()].length;

  router.post('/__admin/reset', (_req, res) => {
    deps.reset();
    deps.changed();
    res.json({ entities: count() });
  });
  router.get('/__admin/state', (_req, res) => {
    res.json(exportState(ctx));
  });
  router.put('/__admin/state', (req, res) => {
    const entities = importState(ctx, req.body);
    deps.changed();
    res.json({ entities });
  });

  router.get('/__admin/latency', (_req, res) => void res.json({ rules: faults.latency }));
  router.put('/__admin/latency', (req, res) => {
    faults.latency = (req.body as { rules: LatencyRule[] }).rules;
    res.json({ rules: faults.latency });
  });
  router.delete('/__admin/latency', (_req, res) => {
    faults.latency = [];
    res.json({ rules: [] });
  });

  router.get('/__admin/errors', (_req, res) => void res.json({ rules: faults.errors }));
  router.put('/__admin/errors', (req, res) => {
    faults.errors = (req.body as { rules: ErrorRule[] }).rules;
    res.json({ rules: faults.errors });
  });
  router.delete('/__admin/errors', (_req, res) => {
    faults.errors = [];
    res.json({ rules: [] });
  });

  router.get('/__admin/journal', (req, res) => {
    res.json({ data: journal.recent(Number(req.query.limit ?? 100)) });
  });
  router.delete('/__admin/journal', (_req, res) => {
    journal.clear();
    res.status(204).end();
  });
  return router;
}
