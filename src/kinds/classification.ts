/**
 * Classifications: the groups tags belong to (docs/behaviour.md "Classifications and tags").
 * `mutuallyExclusive` is fixed at creation; a system classification cannot be deleted.
 */
import { governed } from './shapes.ts';
import { DISABLED_FILTER, refuseSystemDelete } from './tag.ts';

export const classification = governed('classification', 'classifications', 'Classification', {
  relationshipFields: ['usageCount', 'termCount'],
  // The interface's classification has no tags or domains (docs/behaviour.md "Classifications and tags").
  emptyArrays: ['owners'],
  defaults: { mutuallyExclusive: false, provider: 'user', disabled: false },
  immutableFields: ['mutuallyExclusive'],
  listFilters: { disabled: DISABLED_FILTER },
  beforeDelete: refuseSystemDelete,
});
