/** Endpoints of an API collection (`<service>.<collection>.<endpoint>`). */
import { nestedNames } from '../features/lineage/children.ts';
import { serviceAsset } from './shapes.ts';

export const apiEndpoint = serviceAsset('apiEndpoint', 'apiEndpoints', 'ApiEndpoint', 'apiService', {
  parents: [{ field: 'apiCollection', inherit: ['service', 'serviceType'] }],
  refFields: { apiCollection: { kinds: ['apiCollection'], by: 'fqn' } },
  prefixFilters: ['apiCollection'],
  lineageChildren: (entity) => nestedNames(((entity.responseSchema ?? entity.requestSchema) as { schemaFields?: unknown } | undefined)?.schemaFields),
  columnsAt: [
    ['requestSchema', 'schemaFields'],
    ['responseSchema', 'schemaFields'],
  ],
});
