/** Topics of a messaging service. */
import { topicSampleDataOf } from '../domain/asset-sample-data.ts';
import { nestedNames } from '../lineage/children.ts';
import { serviceAsset } from './shapes.ts';

export const topic = serviceAsset('topic', 'topics', 'Topic', 'messagingService', {
  relationshipFields: ['sampleData'],
  // docs/behaviour.md "Container and topic sample data".
  extraFields: { sampleData: (stored, ctx) => topicSampleDataOf(ctx, stored.entity.id) },
  lineageChildren: (entity) => nestedNames((entity.messageSchema as { schemaFields?: unknown } | undefined)?.schemaFields),
  columnsAt: [['messageSchema', 'schemaFields']],
});
