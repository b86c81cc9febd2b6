/**
 * OpenMetadata 2.0's batch calls for connectors and the services page (docs/behaviour.md "Delete
 * and restore", "Services"): `PUT /v1/<collection>/deleteStale` soft-deletes what a connector no
 * longer sees in a scope, one soft delete per entity; `GET /v1/services/overview` counts the
 * services by kind and connector.
 */
import type { CatalogContext, Kind } from '../../core/context.ts';
import type { Schemas } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { softDelete } from '../../core/lifecycle.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';

type BulkOperationResult = Schemas['BulkOperationResult'];

/** The kinds a scope type names: one kind, or every service kind for `service`. */
function scopeKinds(ctx: CatalogContext, type: string): Kind[] {
  if (type === 'service') return ctx.kinds.all.filter((k) => k.collection.startsWith('services/'));
  const kind = ctx.kinds.all.find((k) => k.type === type);
  if (!kind) throw CatalogError.badRequest(`Unknown scopeEntityType ${type}`);
  return [kind];
}

/** `PUT /v1/<collection>/deleteStale`: the live entities of `kind` inside the scope that were not seen. */
export function deleteStale(ctx: CatalogContext, kind: Kind, request: Schemas['BulkDeleteStaleRequest'], user: string): BulkOperationResult {
  const kinds = scopeKinds(ctx, request.scopeEntityType);
  const scope = kinds.map((k) => ctx.store.getByFqn(k.type, request.scopeFqn)).find((s) => s && !s.entity.deleted);
  const result: BulkOperationResult = {
    dryRun: request.dryRun === true,
    status: 'success',
    numberOfRowsProcessed: 0,
    numberOfRowsPassed: 0,
    numberOfRowsFailed: 0,
    successRequest: [],
    failedRequest: [],
  };
  // Nothing seen is no evidence that everything is gone: an empty list deletes nothing.
  if (!scope || request.seenFqns.length === 0) return result;
  const seen = new Set(request.seenFqns);
  const prefix = `${scope.entity.fullyQualifiedName}.`;
  const stale = [...ctx.store.ofType(kind.type)].filter((s) => !s.entity.deleted && s.entity.fullyQualifiedName.startsWith(prefix) && !seen.has(s.entity.fullyQualifiedName));
  result.numberOfRowsProcessed = stale.length;
  for (const stored of stale) {
    const current = ctx.store.get(stored.entity.id);
    // A recursive delete of an earlier one may have taken it already.
    if (!current || current.entity.deleted) continue;
    if (!result.dryRun) softDelete(ctx, kind, current, true, user);
    result.successRequest.push({ request: stored.entity.fullyQualifiedName, status: 200 });
  }
  result.numberOfRowsPassed = result.successRequest.length;
  return result;
}

/** `GET /v1/services/overview`: live services by kind, and by connector within a kind. */
export function servicesOverview(ctx: CatalogContext): Schemas['ServicesOverview'] {
  const byType = ctx.kinds.all
    .filter((k) => k.collection.startsWith('services/'))
    .map((kind) => {
      const byConnector: Record<string, number> = {};
      let count = 0;
      for (const stored of ctx.store.ofType(kind.type)) {
        if (stored.entity.deleted) continue;
        count++;
        const connector = String(stored.entity.serviceType);
        byConnector[connector] = (byConnector[connector] ?? 0) + 1;
      }
      return { serviceType: kind.type, count, byConnector };
    });
  return { total: byType.reduce((sum, t) => sum + t.count, 0), byType };
}

export function mountConnectorRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  router.get('/api/v1/services/overview', (_req, reply) => reply.json(servicesOverview(ctx)));
  for (const kind of ctx.kinds.all) {
    // Mounted for every kind; the document says which collections have it.
    router.put(`/api/v1/${kind.collection}/deleteStale`, (req, reply) => {
      reply.json(deleteStale(ctx, kind, req.body as Schemas['BulkDeleteStaleRequest'], identityOf(req).user));
    });
  }
}
