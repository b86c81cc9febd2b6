/** Pipelines of a pipeline service; `pipelineStatus` is the newest run (src/features/pipeline-status/pipeline-status.ts). */
import { latestPipelineStatus } from '../features/pipeline-status/pipeline-status.ts';
import { serviceAsset } from './shapes.ts';

// Column-level lineage does not apply to pipelines (docs/behaviour.md "Lineage").
export const pipeline = serviceAsset('pipeline', 'pipelines', 'Pipeline', 'pipelineService', {
  relationshipFields: ['tasks', 'pipelineStatus'],
  lineageChildren: () => [],
  // docs/behaviour.md "Pipeline status".
  extraFields: { pipelineStatus: (stored, ctx) => latestPipelineStatus(ctx, stored.entity.id) },
});
