/**
 * `/v1/lineage` (openapi/paths/lineage.yaml; docs/behaviour.md "Lineage"): add, read and remove
 * edges, the graph by id and by FQN, the shapes the web UI's lineage page and impact analysis read,
 * the platform view, failing tests upstream, and the CSV export. The domain is beside it, in src/features/lineage/.
 * Mounted before the generic routes; the literal paths (`getLineage`, `export`…) before the ones
 * that take an entity type in their place.
 */
import type { ApiRequest, Reply } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Entity, Schemas } from '../../core/entity.ts';
import { matchesInclude } from '../../core/listing.ts';
import { parseFields, render } from '../../core/projection.ts';
import { identityOf } from '../../http/exchange.ts';
import { ApiError } from '../../http/errors.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { AddLineage } from './edges.ts';
import { addEdge, edgeDetails, findEnd, findEndByFqn, removeEdge } from './edges.ts';
import { lineageCsv } from './export.ts';
import type { Direction, PlatformView, SearchQuery } from './graph.ts';
import { dataQualityLineage, entityLineage, findByFqn, lineageByEntityCount, paginationInfo, platformLineage, searchLineage } from './graph.ts';
import { pathParam, queryBool, queryInt, queryValue } from '../../http/request-helpers.ts';

const ROOT = '/api/v1/lineage';

/** `query_filter` is an Elasticsearch query: it must at least be JSON. */
function checkQueryFilter(req: ApiRequest): void {
  const raw = queryValue(req, 'query_filter');
  if (raw === undefined || raw === '') return;
  try {
    JSON.parse(String(raw));
  } catch (error) {
    throw ApiError.badRequest(`Invalid query_filter: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function optionalString(req: ApiRequest, name: string): string | undefined {
  const value = queryValue(req, name);
  return value === undefined || value === '' ? undefined : String(value);
}

/** The graph the lineage page reads is through a pipeline when the entity asked for is one. */
const connectedVia = (type: string | undefined): boolean => type === 'pipeline' || type === 'storedProcedure';

function searchQuery(req: ApiRequest, direction?: Direction): SearchQuery {
  checkQueryFilter(req);
  const fields = String(queryValue(req, 'fields') ?? '*');
  return {
    upstreamDepth: queryInt(req, 'upstreamDepth', 1),
    downstreamDepth: queryInt(req, 'downstreamDepth', 1),
    includeDeleted: queryBool(req, 'includeDeleted'),
    from: queryInt(req, 'from', 0),
    size: queryInt(req, 'size', 1000),
    fields: fields.split(',').some((f) => f.trim() === '*') ? '*' : new Set(fields.split(',').map((f) => f.trim())),
    connectedVia: connectedVia(optionalString(req, 'type')),
    ...(direction ? { direction } : {}),
  };
}

const root = (ctx: CatalogContext, req: ApiRequest) => findByFqn(ctx, String(queryValue(req, 'fqn')), optionalString(req, 'type'));

export function mountLineageRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const user = (req: ApiRequest) => identityOf(req).user;

  // OpenMetadata 2.0's batch read of a graph's nodes: each as GET by id shows it, grouped by type;
  // what is not there (or not visible, or of no kind here) is dropped and counted, never an error.
  router.post(`${ROOT}/hydrate`, (req, reply) => {
    const body = req.body as Schemas['HydrateLineageRequest'];
    const include = body.include ?? 'non-deleted';
    const entitiesByType: Record<string, Entity[]> = {};
    let droppedCount = 0;
    for (const { id, type } of body.entities) {
      const kind = ctx.kinds.all.find((k) => k.type === type);
      const stored = kind ? ctx.store.get(id) : undefined;
      if (!kind || !stored || stored.type !== type || !matchesInclude(stored.entity, include)) {
        droppedCount++;
        continue;
      }
      // Fields a kind does not have are skipped, as OpenMetadata skips them per repository.
      const wanted = (body.fields ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== '' && ctx.validators.propertyNames(kind.schema).has(f));
      (entitiesByType[type] ??= []).push(render(ctx, kind, stored, parseFields(ctx, kind, wanted.join(',')), req.baseUrl));
    }
    reply.json({ entitiesByType, droppedCount });
  });

  router.put(ROOT, (req, reply) => {
    addEdge(ctx, req.body as AddLineage, user(req));
    reply.status(200).empty();
  });

  router.get(`${ROOT}/getLineage`, (req, reply) => {
    reply.json(searchLineage(ctx, root(ctx, req), searchQuery(req)));
  });

  router.get(`${ROOT}/getLineage/:direction`, (req, reply) => {
    reply.json(searchLineage(ctx, root(ctx, req), searchQuery(req, pathParam(req, 'direction') as Direction)));
  });

  router.get(`${ROOT}/getLineageByEntityCount`, (req, reply) => {
    checkQueryFilter(req);
    const nodeDepth = queryValue(req, 'nodeDepth');
    reply.json(
      lineageByEntityCount(ctx, root(ctx, req), {
        direction: String(queryValue(req, 'direction')) as Direction,
        maxDepth: queryInt(req, 'maxDepth', 3),
        ...(nodeDepth !== undefined && nodeDepth !== '' ? { nodeDepth: queryInt(req, 'nodeDepth', 0) } : {}),
        from: queryInt(req, 'from', 0),
        size: queryInt(req, 'size', 1000),
        includeDeleted: queryBool(req, 'includeDeleted'),
        connectedVia: connectedVia(optionalString(req, 'type')),
      }),
    );
  });

  router.get(`${ROOT}/getPaginationInfo`, (req, reply) => {
    checkQueryFilter(req);
    reply.json(paginationInfo(ctx, root(ctx, req), queryInt(req, 'upstreamDepth', 3), queryInt(req, 'downstreamDepth', 3), queryBool(req, 'includeDeleted')));
  });

  router.get(`${ROOT}/getPlatformLineage`, (req, reply) => {
    checkQueryFilter(req);
    reply.json(platformLineage(ctx, String(queryValue(req, 'view')) as PlatformView, queryBool(req, 'includeDeleted')));
  });

  router.get(`${ROOT}/getDataQualityLineage`, (req, reply) => {
    checkQueryFilter(req);
    reply.json(dataQualityLineage(ctx, root(ctx, req), queryInt(req, 'upstreamDepth', 1), queryBool(req, 'includeDeleted')));
  });

  router.get(`${ROOT}/getLineageEdge/:fromId/:toId`, (req, reply) => {
    reply.json({ edge: edgeDetails(ctx, pathParam(req, 'fromId'), pathParam(req, 'toId')) });
  });

  router.get(`${ROOT}/export`, (req, reply) => {
    const csv = lineageCsv(ctx, root(ctx, req), searchQuery(req));
    reply.status(200).text(csv, 'text/plain');
  });

  // No websocket here: the CSV of an export job is what `GET /v1/lineage/export` answers.
  const startExport = (req: ApiRequest, reply: Reply) => {
    checkQueryFilter(req);
    root(ctx, req);
    reply.status(202).json({ jobId: ctx.newId(), message: 'Export initiated successfully.' });
  };
  router.get(`${ROOT}/exportAsync`, startExport);
  router.get(`${ROOT}/exportByEntityCountAsync`, startExport);

  router.get(`${ROOT}/:entity/name/:fqn`, (req, reply) => {
    const stored = findEndByFqn(ctx, pathParam(req, 'entity'), pathParam(req, 'fqn'), true);
    reply.json(entityLineage(ctx, stored, queryInt(req, 'upstreamDepth', 1), queryInt(req, 'downstreamDepth', 1)));
  });

  router.get(`${ROOT}/:entity/:id`, (req, reply) => {
    const stored = findEnd(ctx, pathParam(req, 'entity'), pathParam(req, 'id'), true);
    reply.json(entityLineage(ctx, stored, queryInt(req, 'upstreamDepth', 1), queryInt(req, 'downstreamDepth', 1)));
  });

  router.delete(`${ROOT}/:fromEntity/name/:fromFQN/:toEntity/name/:toFQN`, (req, reply) => {
    const from = findEndByFqn(ctx, pathParam(req, 'fromEntity'), pathParam(req, 'fromFQN'), false);
    const to = findEndByFqn(ctx, pathParam(req, 'toEntity'), pathParam(req, 'toFQN'), false);
    removeEdge(ctx, from, to, user(req));
    reply.status(200).empty();
  });

  router.delete(`${ROOT}/:fromEntity/:fromId/:toEntity/:toId`, (req, reply) => {
    const from = findEnd(ctx, pathParam(req, 'fromEntity'), pathParam(req, 'fromId'), false);
    const to = findEnd(ctx, pathParam(req, 'toEntity'), pathParam(req, 'toId'), false);
    removeEdge(ctx, from, to, user(req));
    reply.status(200).empty();
  });
}
