/** ML models of an ML model service; a new `algorithm` is a major version change. */
import { nestedNames } from '../features/lineage/children.ts';
import { serviceAsset } from './shapes.ts';

export const mlmodel = serviceAsset('mlmodel', 'mlmodels', 'MlModel', 'mlmodelService', {
  refFields: { dashboard: { kinds: ['dashboard'], by: 'fqn' } },
  relationshipFields: ['dashboard', 'usageSummary'],
  majorFields: ['algorithm'],
  lineageChildren: (entity) => nestedNames(entity.mlFeatures),
});
