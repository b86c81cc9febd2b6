/**
 * Containers (buckets, folders) of a storage service. A container may sit in another container
 * (`parent`, whose service it shares) or directly under its service; `children` lists the
 * containers inside it and `?root=true` lists only those directly under a service.
 */
import { containerSampleDataOf } from '../features/table-data/asset-sample-data.ts';
import { SERVICE_PARENT, serviceAsset } from './shapes.ts';

export const container = serviceAsset('container', 'containers', 'Container', 'storageService', {
  parents: [{ field: 'parent', inherit: ['service', 'serviceType'] }, SERVICE_PARENT],
  refFields: { parent: { kinds: ['container'], by: 'ref' } },
  relationshipFields: ['children', 'parent', 'dataModel', 'sampleData'],
  childFields: { children: 'container' },
  // docs/behaviour.md "Container and topic sample data".
  extraFields: { sampleData: (stored, ctx) => containerSampleDataOf(ctx, stored.entity.id) },
  columnsAt: [['dataModel', 'columns']],
  listFilters: { root: (value) => (String(value) === 'true' ? (e) => e.parent === undefined : undefined) },
});
