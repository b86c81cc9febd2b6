/**
 * Asynchronous delete, `DELETE /v1/<collection>/async/{id}`, for every kind (docs/behaviour.md
 * "Asynchronous delete"; OpenMetadata's EntityResource `deleteByIdAsync`, the web UI's
 * `ui/rest/miscAPI.ts`): the entity is looked up first (404), the answer is 202 with a job id, and
 * the delete — soft, or hard with `hardDelete=true`, `recursive` as for the delete by id — runs
 * right after (on the next turn of the event loop), all or nothing. Registered before the generic entity routes.
 */
import type { CatalogContext, Kind } from '../../core/context.ts';
import { hardDelete, softDelete } from '../../core/lifecycle.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findById, pathParam, queryBool } from '../../http/request-helpers.ts';

export function mountAsyncDeleteRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  for (const kind of ctx.kinds.all) {
    router.delete(`/api/v1/${kind.collection}/async/:id`, (req, reply) => {
      const stored = findById(ctx, kind, pathParam(req, 'id'), 'all');
      const recursive = queryBool(req, 'recursive');
      const hard = kind.hardDeleteOnly === true || queryBool(req, 'hardDelete');
      const user = identityOf(req).user;
      const name = String(stored.entity.name);
      setTimeout(() => deleteNow(ctx, kind, stored.entity.id, { hard, recursive, user }));
      reply.status(202).json({ jobId: ctx.newId(), message: `Delete operation initiated for ${name}`, entityName: name, hardDelete: hard, recursive });
    });
  }
}

/**
 * The job: the delete the by-id route would do, in one atomic write. A delete that fails now (a
 * parent without `recursive`, an entity already gone) changes nothing; OpenMetadata reports it on
 * its websocket, which this server does not have.
 */
function deleteNow(ctx: CatalogContext, kind: Kind, id: string, job: { hard: boolean; recursive: boolean; user: string }): void {
  try {
    ctx.store.atomically(() => {
      const stored = ctx.store.get(id);
      if (!stored || stored.type !== kind.type) return;
      if (job.hard) hardDelete(ctx, kind, stored, job.recursive, job.user);
      else softDelete(ctx, kind, stored, job.recursive, job.user);
    });
  } catch {
    // Refused: nothing was changed (`atomically` undid it).
  }
}
