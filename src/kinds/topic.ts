/** Topics of a messaging service. */
import { serviceAsset } from './shapes.ts';

export const topic = serviceAsset('topic', 'topics', 'Topic', 'messagingService', { relationshipFields: ['sampleData'] });
