/** Pipelines of a pipeline service. */
import { serviceAsset } from './shapes.ts';

export const pipeline = serviceAsset('pipeline', 'pipelines', 'Pipeline', 'pipelineService', { relationshipFields: ['tasks', 'pipelineStatus'] });
