/**
 * Runs of a pipeline by its FQN (docs/behaviour.md "Pipeline status"; OpenMetadata's
 * PipelineResource `/{fqn}/status`, the web UI's `ui/rest/pipelineAPI.ts`). Served in both
 * profiles; registered before the generic entity routes.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { PipelineStatus } from './pipeline-status.ts';
import { addPipelineStatus, deletePipelineStatus, pipelineStatuses } from './pipeline-status.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { queryTimestamp } from '../table-data/table-data-routes.ts';
import { findByFqn, pathParam, renderFor } from '../../http/request-helpers.ts';

export function mountPipelineStatusRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const PIPELINE = ctx.kinds.of('pipeline');
  const live = (req: ApiRequest) => findByFqn(ctx, PIPELINE, pathParam(req, 'fqn'), 'non-deleted');
  const withStatus = new Set(['pipelineStatus']);
  router.put('/api/v1/pipelines/:fqn/status', (req, reply) => {
    const stored = live(req);
    addPipelineStatus(ctx, stored, req.body as PipelineStatus);
    reply.json(renderFor(ctx, PIPELINE, req, stored, withStatus));
  });
  router.get('/api/v1/pipelines/:fqn/status', (req, reply) => {
    const stored = live(req);
    reply.json(pipelineStatuses(ctx, stored.entity.id, { startTs: queryTimestamp(req, 'startTs'), endTs: queryTimestamp(req, 'endTs'), now: ctx.now() }));
  });
  router.delete('/api/v1/pipelines/:fqn/status/:timestamp', (req, reply) => {
    const stored = live(req);
    deletePipelineStatus(ctx, stored, Number(pathParam(req, 'timestamp')));
    reply.json(renderFor(ctx, PIPELINE, req, stored, withStatus));
  });
}
