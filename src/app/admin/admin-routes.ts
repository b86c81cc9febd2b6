/**
 * The Admin API under `/__admin` (documented in openapi/admin.yaml and docs/ui-work.md "Admin API").
 * Its own small OpenAPI document validates its requests and responses, as the main one does for
 * `/api`. No authentication: it is a local development tool, bound to 127.0.0.1 like the server.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { operationRoutes } from '../../http/operation-routes.ts';
import { compiledValidators } from '../../openapi/compiled.ts';
import type { FaultSettings, ErrorRule, LatencyRule } from './injection.ts';
import type { Journal } from './journal.ts';
import { exportState, importState } from '../state/state.ts';

/** The Admin API's document (openapi/admin.yaml), as the build wrote it. */
export function loadAdminDocument(): Record<string, unknown> {
  return compiledValidators().adminDocument;
}

export interface AdminDeps {
  ctx: CatalogContext;
  faults: FaultSettings;
  journal: Journal;
  /** Clears the state and loads the start state (`start`: the data file's at start, else the fixtures) or the fixtures. */
  reset(to: 'start' | 'fixtures'): void;
  /** Called after every change of the state (persistence). */
  changed(): void;
}

/** The Admin API's routes, validated both ways by its own document, compiled at build time like the API's. */
export function adminRoutes(deps: AdminDeps): OperationRoutes {
  const { ctx, faults, journal } = deps;
  const compiled = compiledValidators();
  const operations = compiled.tables.admin.operations;
  const routes = operationRoutes({ prefix: '', operations, compiled });
  const count = () => [...ctx.store.all()].length;

  // The index the server's start-up banner links to.
  routes.get('/__admin', (_req, reply) => {
    reply.json({
      name: 'catalog-kit Admin API',
      document: '/__admin/openapi.json',
      docs: '/docs',
      operations: operations.map((op) => ({ method: op.method, path: op.path, operationId: op.operationId })),
    });
  });

  // The server as it started: its start state, no latency or error rule, an empty journal (as
  // WireMock's reset drops its stubs and its request journal).
  routes.post('/__admin/reset', (req, reply) => {
    deps.reset(req.query.to === 'fixtures' ? 'fixtures' : 'start');
    faults.clear();
    journal.clear();
    deps.changed();
    reply.json({ entities: count() });
  });
  routes.get('/__admin/state', (_req, reply) => {
    reply.json(exportState(ctx));
  });
  routes.put('/__admin/state', (req, reply) => {
    const entities = importState(ctx, req.body);
    deps.changed();
    reply.json({ entities });
  });

  routes.get('/__admin/latency', (_req, reply) => void reply.json({ rules: faults.latency }));
  routes.put('/__admin/latency', (req, reply) => {
    faults.latency = (req.body as { rules: LatencyRule[] }).rules;
    reply.json({ rules: faults.latency });
  });
  routes.delete('/__admin/latency', (_req, reply) => {
    faults.latency = [];
    reply.json({ rules: [] });
  });

  routes.get('/__admin/errors', (_req, reply) => void reply.json({ rules: faults.errors }));
  routes.put('/__admin/errors', (req, reply) => {
    faults.errors = (req.body as { rules: ErrorRule[] }).rules;
    reply.json({ rules: faults.errors });
  });
  routes.delete('/__admin/errors', (_req, reply) => {
    faults.errors = [];
    reply.json({ rules: [] });
  });

  routes.get('/__admin/journal', (req, reply) => {
    reply.json({ data: journal.recent(Number(req.query.limit ?? 100)) });
  });
  routes.delete('/__admin/journal', (_req, reply) => {
    journal.clear();
    reply.status(204).empty();
  });
  return routes;
}
