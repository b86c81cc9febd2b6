/**
 * `PUT /v1/tags/{id}/assets/add|remove` (docs/behaviour.md "Tag assets"; OpenMetadata's TagResource,
 * the web UI's `ui/rest/tagAPI.ts`). Served in both profiles; registered before the generic entity routes.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { AddTagToAssetsRequest } from './tag-assets.ts';
import { tagAssets } from './tag-assets.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findById, pathParam } from '../../http/request-helpers.ts';

export function mountTagAssetRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const TAG = ctx.kinds.of('tag');
  for (const op of ['add', 'remove'] as const) {
    router.put(`/api/v1/tags/:id/assets/${op}`, (req, reply) => {
      const stored = findById(ctx, TAG, pathParam(req, 'id'), 'non-deleted');
      reply.json(tagAssets(ctx, stored, req.body as AddTagToAssetsRequest, op, identityOf(req).user));
    });
  }
}
