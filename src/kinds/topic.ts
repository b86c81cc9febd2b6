/** Topics of a messaging service. */
import { topicSampleDataOf } from '../features/table-data/asset-sample-data.ts';
import { serviceAsset } from './shapes.ts';

export const topic = serviceAsset('topic', 'topics', 'Topic', 'messagingService', {
  relationshipFields: ['sampleData'],
  // docs/behaviour.md "Container and topic sample data".
  extraFields: { sampleData: (stored, ctx) => topicSampleDataOf(ctx, stored.entity.id) },
  columnsAt: [['messageSchema', 'schemaFields']],
});
