/**
 * A table's columns a page at a time, searched, updated by FQN, its custom metrics and its latest profile
 * (docs/behaviour.md "Table columns and custom metrics"; OpenMetadata's TableResource, the web UI's
 * `ui/rest/tableAPI.ts` and `ui/rest/customMetricAPI.ts`; ColumnResource for `/v1/columns`). Served in both profiles; registered
 * before the generic entity routes.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import { applyChange } from '../../core/lifecycle.ts';
import type { ProfileKind } from './table-data.ts';
import { deleteProfilesAt } from './table-data.ts';
import { ApiError } from '../../http/errors.ts';
import { quoteName, splitFqn } from '../../core/fqn.ts';
import type { CreateCustomMetric, UpdateColumn } from './table-columns.ts';
import { addCustomMetric, columnPage, deleteCustomMetric, updateColumnByFqn, withLatestColumnProfiles } from './table-columns.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { findByFqn, findById, pathParam, queryInclude, queryInt, queryValue, renderFor } from '../../http/request-helpers.ts';

const PROFILE_KINDS: ReadonlySet<string> = new Set<ProfileKind>(['table', 'column', 'system']);

export function mountTableColumnRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const TABLE = ctx.kinds.of('table');
  const page = (req: ApiRequest, stored: StoredEntity, search: boolean) => {
    const fields = String(queryValue(req, 'fields') ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== '');
    const q = queryValue(req, 'q');
    return columnPage(ctx, stored, {
      limit: queryInt(req, 'limit', 50),
      offset: queryInt(req, 'offset', 0),
      fields,
      ...(search && typeof q === 'string' && q !== '' ? { query: q } : {}),
    });
  };
  const byId = (req: ApiRequest) => findById(ctx, TABLE, pathParam(req, 'id'), queryInclude(req));
  const byName = (req: ApiRequest) => findByFqn(ctx, TABLE, pathParam(req, 'fqn'), queryInclude(req));
  router.get('/api/v1/tables/:id/columns', (req, reply) => reply.json(page(req, byId(req), false)));
  router.get('/api/v1/tables/name/:fqn/columns', (req, reply) => reply.json(page(req, byName(req), false)));
  router.get('/api/v1/tables/:id/columns/search', (req, reply) => reply.json(page(req, byId(req), true)));
  router.get('/api/v1/tables/name/:fqn/columns/search', (req, reply) => reply.json(page(req, byName(req), true)));

  router.put('/api/v1/columns/name/:fqn', (req, reply) => {
    const { table, next, column } = updateColumnByFqn(ctx, pathParam(req, 'fqn'), req.body as UpdateColumn);
    applyChange(ctx, TABLE, table, next, identityOf(req).user);
    reply.json(column);
  });

  router.get('/api/v1/tables/:fqn/tableProfile/latest', (req, reply) => {
    const stored = findByFqn(ctx, TABLE, pathParam(req, 'fqn'), 'non-deleted');
    const rendered = renderFor(ctx, TABLE, req, stored, new Set(['profile']));
    const includeColumnProfile = queryValue(req, 'includeColumnProfile');
    reply.json(includeColumnProfile === false || includeColumnProfile === 'false' ? rendered : withLatestColumnProfiles(ctx, stored.entity.id, rendered));
  });

  const live = (req: ApiRequest) => findById(ctx, TABLE, pathParam(req, 'id'), 'non-deleted');
  const withMetrics = (req: ApiRequest, stored: StoredEntity) => renderFor(ctx, TABLE, req, stored, new Set(['customMetrics']));
  router.put('/api/v1/tables/:id/customMetric', (req, reply) => {
    const stored = live(req);
    addCustomMetric(ctx, stored, req.body as CreateCustomMetric, identityOf(req).user);
    reply.json(withMetrics(req, stored));
  });
  router.delete('/api/v1/tables/:id/customMetric/:columnName/:customMetricName', (req, reply) => {
    const stored = live(req);
    deleteCustomMetric(ctx, stored, pathParam(req, 'customMetricName'), pathParam(req, 'columnName'));
    reply.json(withMetrics(req, stored));
  });
  router.delete('/api/v1/tables/:id/customMetric/:customMetricName', (req, reply) => {
    const stored = live(req);
    deleteCustomMetric(ctx, stored, pathParam(req, 'customMetricName'));
    reply.json(withMetrics(req, stored));
  });

  // Mounted after the custom metric deletes, which have as many segments.
  router.delete('/api/v1/tables/:fqn/:entityType/:timestamp/profile', (req, reply) => {
    const entityType = pathParam(req, 'entityType');
    if (!PROFILE_KINDS.has(entityType)) throw ApiError.badRequest(`entityType must be table, column or system, not ${entityType}`);
    const kind = entityType as ProfileKind;
    const fqn = pathParam(req, 'fqn');
    let column: string | undefined;
    let tableFqn = fqn;
    if (kind === 'column') {
      const parts = splitFqn(fqn);
      column = parts.pop();
      tableFqn = parts.map(quoteName).join('.');
    }
    const stored = ctx.store.getByFqn(TABLE.type, tableFqn);
    if (!stored || stored.entity.deleted) throw ApiError.notFound(kind === 'column' ? 'column' : TABLE.type, fqn);
    if (column !== undefined && !(stored.entity.columns as { name: string }[] | undefined)?.some((c) => c.name === column)) throw ApiError.notFound('column', fqn);
    deleteProfilesAt(ctx, stored.entity.id, kind, Number(pathParam(req, 'timestamp')), column);
    reply.status(200).empty();
  });
}
