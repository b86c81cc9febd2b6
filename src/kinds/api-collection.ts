/** API collections of an API service; `apiEndpoints` lists the endpoints inside one. */
import { serviceAsset } from './shapes.ts';

export const apiCollection = serviceAsset('apiCollection', 'apiCollections', 'ApiCollection', 'apiService', {
  relationshipFields: ['apiEndpoints'],
  childFields: { apiEndpoints: 'apiEndpoint' },
});
