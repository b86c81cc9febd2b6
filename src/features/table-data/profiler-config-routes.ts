/**
 * The profiler configuration of databases and database schemas (docs/behaviour.md "Database and
 * schema profiler configuration"; OpenMetadata's DatabaseResource and DatabaseSchemaResource, the
 * web UI's `ui/rest/databaseAPI.ts`): each answer is the entity with (or, after DELETE, without)
 * the configuration field. Served in both profiles.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { DatabaseProfilerConfig } from './profiler-configs.ts';
import { setContainerProfilerConfig } from './profiler-configs.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findById, pathParam, renderFor } from '../../http/request-helpers.ts';

/** The kinds with a profiler configuration, and the field that shows it. */
const SERVED: readonly { type: string; field: string }[] = [
  { type: 'database', field: 'databaseProfilerConfig' },
  { type: 'databaseSchema', field: 'databaseSchemaProfilerConfig' },
];

export function mountProfilerConfigRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  for (const { type, field } of SERVED) {
    const kind = ctx.kinds.of(type);
    const path = `/api/v1/${kind.collection}/:id/${field}`;
    const fields = new Set([field]);
    router.get(path, (req, reply) => reply.json(renderFor(ctx, kind, req, findById(ctx, kind, pathParam(req, 'id'), 'non-deleted'), fields)));
    router.put(path, (req, reply) => {
      const stored = findById(ctx, kind, pathParam(req, 'id'), 'non-deleted');
      setContainerProfilerConfig(ctx, kind.type, stored.entity.id, req.body as DatabaseProfilerConfig);
      reply.json(renderFor(ctx, kind, req, stored, fields));
    });
    router.delete(path, (req, reply) => {
      const stored = findById(ctx, kind, pathParam(req, 'id'), 'non-deleted');
      setContainerProfilerConfig(ctx, kind.type, stored.entity.id, undefined);
      reply.json(renderFor(ctx, kind, req, stored, fields));
    });
  }
}
