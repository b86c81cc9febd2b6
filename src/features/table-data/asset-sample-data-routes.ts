/**
 * Sample data of containers and topics, and the children of a container a page at a time
 * (docs/behaviour.md "Container and topic sample data", "Container children"; OpenMetadata's
 * ContainerResource and TopicResource, the web UI's `ui/rest/storageAPI.ts` and
 * `ui/rest/topicsAPI.ts`). Served in both profiles; registered before the generic entity routes.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Schemas } from '../../core/entity.ts';
import { referenceTo } from '../../core/entity.ts';
import { matchesInclude } from '../../core/listing.ts';
import type { TopicSampleData } from './asset-sample-data.ts';
import { deleteContainerSampleData, deleteTopicSampleData, setContainerSampleData, setTopicSampleData } from './asset-sample-data.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { findByFqn, findById, pathParam, queryInclude, queryInt, renderFor } from '../../http/request-helpers.ts';

const SAMPLE_DATA = new Set(['sampleData']);

export function mountAssetSampleDataRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const [CONTAINER, TOPIC] = [ctx.kinds.of('container'), ctx.kinds.of('topic')];
  const served = [
    { kind: CONTAINER, set: (stored: StoredEntity, body: unknown) => setContainerSampleData(ctx, stored, body as Schemas['TableData']), remove: deleteContainerSampleData },
    { kind: TOPIC, set: (stored: StoredEntity, body: unknown) => setTopicSampleData(ctx, stored, body as TopicSampleData), remove: deleteTopicSampleData },
  ];
  for (const { kind, set, remove } of served) {
    const path = `/api/v1/${kind.collection}/:id/sampleData`;
    const live = (req: ApiRequest) => findById(ctx, kind, pathParam(req, 'id'), 'non-deleted');
    router.get(path, (req, reply) => reply.json(renderFor(ctx, kind, req, live(req), SAMPLE_DATA)));
    router.put(path, (req, reply) => {
      const stored = live(req);
      set(stored, req.body);
      reply.json(renderFor(ctx, kind, req, stored, SAMPLE_DATA));
    });
    router.delete(path, (req, reply) => {
      const stored = live(req);
      remove(ctx, stored.entity.id);
      reply.json(renderFor(ctx, kind, req, stored, SAMPLE_DATA));
    });
  }

  router.get('/api/v1/containers/name/:fqn/children', (req, reply) => {
    const parent = findByFqn(ctx, CONTAINER, pathParam(req, 'fqn'), 'all');
    const include = queryInclude(req);
    const limit = queryInt(req, 'limit', 10);
    const offset = queryInt(req, 'offset', 0);
    const children = ctx.store
      .children(parent.entity.id)
      .filter((c) => c.type === CONTAINER.type && matchesInclude(c.entity, include))
      .sort((a, b) => a.entity.name.localeCompare(b.entity.name));
    const base = req.baseUrl;
    const data = children.slice(offset, offset + limit).map((c) => ({ ...referenceTo(c.type, c.entity), href: `${base}/v1/containers/${c.entity.id}` }));
    reply.json({ data, paging: { offset, limit, total: children.length } });
  });
}
